import { getEventListeners } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { createNodeFetch, type NodeFetch } from "../../src/http/index.js";
import { deferred } from "../helpers/deferred.js";
import { freePort } from "../helpers/free-port.js";

interface TestServer {
  origin: string;
  /** Connections accepted so far. */
  connections: number;
  /** Resolves when a connection closes. */
  closed: Promise<void>;
  /** Each request's method, path, headers and body, in order. */
  requests: { method: string; url: string; headers: IncomingMessage["headers"]; body: string }[];
}

const servers: Server[] = [];
const fetches: NodeFetch[] = [];

afterEach(async () => {
  for (const fetch of fetches.splice(0)) fetch.close();
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
});

/** A loopback server answering with `handle` once each request's body is read. */
async function startServer(
  handle: (req: IncomingMessage, res: ServerResponse, body: string) => void,
): Promise<TestServer> {
  const closed = deferred();
  const state: TestServer = { origin: "", connections: 0, closed: closed.promise, requests: [] };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      state.requests.push({
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body,
      });
      handle(req, res, body);
    });
  });
  server.on("connection", (socket: Socket) => {
    state.connections += 1;
    socket.on("close", () => closed.resolve());
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

function nodeFetch(options: Parameters<typeof createNodeFetch>[0] = {}): NodeFetch {
  const created = createNodeFetch(options);
  fetches.push(created);
  return created;
}

async function readAll(body: ReadableStream<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return Buffer.concat(chunks);
}

describe("createNodeFetch", () => {
  it("sends a string body and returns the status, headers and body", async () => {
    const server = await startServer((_req, res, body) => {
      res.writeHead(201, "Made", { "x-echo": body.length });
      res.end(`got ${body}`);
    });
    const response = await nodeFetch()(`${server.origin}/things?a=1#frag`, {
      method: "post",
      headers: { "x-one": "1" },
      body: "hello",
    });
    expect(response).toBeInstanceOf(Response);
    expect(response.status).toBe(201);
    expect(response.statusText).toBe("Made");
    expect(response.ok).toBe(true);
    expect(response.headers.get("x-echo")).toBe("5");
    expect(response.url).toBe(`${server.origin}/things?a=1`);
    expect(response.redirected).toBe(false);
    expect(await response.text()).toBe("got hello");
    expect(server.requests[0]).toMatchObject({
      method: "POST",
      url: "/things?a=1",
      body: "hello",
      headers: {
        "x-one": "1",
        "content-type": "text/plain;charset=UTF-8",
        "content-length": "5",
        "accept-encoding": "gzip, deflate, br",
      },
    });
  });

  it("sends Buffer, ArrayBuffer and URLSearchParams bodies, and headers given as pairs or Headers", async () => {
    const server = await startServer((_req, res) => res.end("ok"));
    const fetch = nodeFetch();
    const bytes = Buffer.from("bytes");
    await fetch(server.origin, { method: "PUT", body: bytes, headers: [["x-pair", "p"]] });
    bytes.fill(0); // the request already has its copy
    await fetch(server.origin, {
      method: "POST",
      body: new TextEncoder().encode("array").buffer,
      headers: new Headers({ "x-headers": "h" }),
    });
    await fetch(server.origin, { method: "POST", body: new URLSearchParams({ q: "a b" }) });
    await fetch(new Request(`${server.origin}/r`, { method: "POST", body: "from a request" }));
    expect(server.requests.map((request) => request.body)).toEqual([
      "bytes",
      "array",
      "q=a+b",
      "from a request",
    ]);
    expect(server.requests[0]?.headers["x-pair"]).toBe("p");
    expect(server.requests[1]?.headers["x-headers"]).toBe("h");
    expect(server.requests[2]?.headers["content-type"]).toBe(
      "application/x-www-form-urlencoded;charset=UTF-8",
    );
    expect(server.requests[3]).toMatchObject({ method: "POST", url: "/r" });
  });

  it("parses a JSON answer", async () => {
    const server = await startServer((_req, res) => {
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ answer: 42, list: [1, 2] }));
    });
    const response = await nodeFetch()(server.origin);
    expect(await response.json()).toEqual({ answer: 42, list: [1, 2] });
  });

  it("gives a 204 and a HEAD answer a null body", async () => {
    const server = await startServer((req, res) => {
      res.statusCode = req.url === "/none" ? 204 : 200;
      res.setHeader("content-length", "3");
      res.end(req.method === "HEAD" ? undefined : "abc");
    });
    const fetch = nodeFetch();
    const empty = await fetch(`${server.origin}/none`, { method: "DELETE" });
    expect(empty.status).toBe(204);
    expect(empty.body).toBeNull();
    const head = await fetch(server.origin, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.body).toBeNull();
  });

  it("keeps every set-cookie header", async () => {
    const server = await startServer((_req, res) => {
      res.setHeader("set-cookie", ["a=1; Path=/", "b=2; Path=/"]);
      res.end();
    });
    const response = await nodeFetch()(server.origin);
    expect(response.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2; Path=/"]);
  });

  it("hands over a body past the threshold as a stream before the server has sent it all", async () => {
    const rest = deferred();
    const first = Buffer.alloc(1024 * 1024 + 10, 1);
    const second = Buffer.alloc(512 * 1024, 2);
    const server = await startServer((_req, res) => {
      res.write(first);
      // The rest only once the test holds the Response: it cannot have been buffered whole.
      rest.promise.then(() => res.end(second));
    });
    const response = await nodeFetch()(server.origin);
    expect(response.body).toBeInstanceOf(ReadableStream);
    rest.resolve();
    const body = await readAll(response.body as ReadableStream<Uint8Array>);
    expect(body.length).toBe(first.length + second.length);
    expect(body.equals(Buffer.concat([first, second]))).toBe(true);
  });

  it("rejects at once with the reason of a signal already aborted, sending nothing", async () => {
    const server = await startServer((_req, res) => res.end());
    const controller = new AbortController();
    const reason = new Error("stop");
    controller.abort(reason);
    await expect(nodeFetch()(server.origin, { signal: controller.signal })).rejects.toBe(reason);
    const plain = new AbortController();
    plain.abort();
    await expect(nodeFetch()(server.origin, { signal: plain.signal })).rejects.toMatchObject({
      name: "AbortError",
    });
    expect(server.connections).toBe(0);
  });

  it("rejects with the signal's reason and closes the socket when aborted in flight", async () => {
    const arrived = deferred();
    const server = await startServer(() => arrived.resolve()); // never answers
    const controller = new AbortController();
    const pending = nodeFetch()(server.origin, {
      method: "POST",
      body: "x",
      signal: controller.signal,
    });
    await arrived.promise;
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
    await server.closed;
  });

  it("errors a streaming body when aborted while it streams", async () => {
    const server = await startServer((_req, res) => res.write(Buffer.alloc(64 * 1024, 1)));
    const controller = new AbortController();
    const response = await nodeFetch({ bufferBytes: 1024 })(server.origin, {
      signal: controller.signal,
    });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    controller.abort();
    await expect(
      (async () => {
        for (;;) if ((await reader.read()).done) return;
      })(),
    ).rejects.toMatchObject({ name: "AbortError" });
    await server.closed;
  });

  it("leaves no listener on a signal the caller keeps for many requests", async () => {
    const server = await startServer((_req, res) => res.end("ok"));
    const fetch = nodeFetch();
    const signal = new AbortController().signal;
    for (let index = 0; index < 3; index += 1)
      await (await fetch(server.origin, { signal })).text();
    expect(getEventListeners(signal, "abort")).toHaveLength(0);
  });

  it("fails as undici does when the server stays silent past the idle timeout", async () => {
    const server = await startServer(() => undefined);
    const error = await nodeFetch({ idleTimeoutMs: 50 })(server.origin).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(TypeError);
    expect(((error as Error).cause as { code?: string }).code).toBe("UND_ERR_HEADERS_TIMEOUT");
    await server.closed;
  });

  it("rejects with a TimeoutError for AbortSignal.timeout", async () => {
    const server = await startServer(() => undefined);
    await expect(
      nodeFetch()(server.origin, { signal: AbortSignal.timeout(50) }),
    ).rejects.toMatchObject({ name: "TimeoutError" });
  });

  it("rejects a refused connection as fetch does: TypeError 'fetch failed' with the code as cause", async () => {
    const port = await freePort();
    const error = await nodeFetch()(`http://127.0.0.1:${port}/`).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe("fetch failed");
    expect(((error as Error).cause as { code?: string }).code).toBe("ECONNREFUSED");
  });

  it("rejects a connection closed before the answer ended with ECONNRESET as cause", async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { "content-length": "100" });
      res.write("partial");
      setTimeout(() => res.socket?.destroy(), 10);
    });
    const error = await nodeFetch()(server.origin).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TypeError);
    expect(((error as Error).cause as { code?: string }).code).toBe("ECONNRESET");
  });

  it("rejects an answer whose status a Response cannot carry, rather than hanging", async () => {
    const server = createServer();
    servers.push(server);
    server.on("connection", (socket: Socket) => {
      socket.once("data", () => socket.end("HTTP/1.1 600 Odd\r\ncontent-length: 2\r\n\r\nok"));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const error = await nodeFetch()(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`)
      .then(() => "answered")
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe("fetch failed");
  });

  describe("redirects", () => {
    it("follows a 302 for a GET, with the final url and redirected set", async () => {
      const server = await startServer((req, res) => {
        if (req.url === "/start") res.writeHead(302, { location: "/end" }).end("moved");
        else res.end(`at ${req.url}`);
      });
      const response = await nodeFetch()(`${server.origin}/start`);
      expect(await response.text()).toBe("at /end");
      expect(response.url).toBe(`${server.origin}/end`);
      expect(response.redirected).toBe(true);
    });

    it("turns a POST into a GET without body after a 303", async () => {
      const server = await startServer((req, res) => {
        if (req.url === "/form") res.writeHead(303, { location: "/done" }).end();
        else res.end("done");
      });
      await nodeFetch()(`${server.origin}/form`, {
        method: "POST",
        body: "data",
        headers: { "content-type": "text/plain" },
      });
      expect(server.requests[1]).toMatchObject({ method: "GET", url: "/done", body: "" });
      expect(server.requests[1]?.headers["content-type"]).toBeUndefined();
    });

    it("keeps the method and the body after a 307", async () => {
      const server = await startServer((req, res) => {
        if (req.url === "/old") res.writeHead(307, { location: "/new" }).end();
        else res.end("kept");
      });
      await nodeFetch()(`${server.origin}/old`, { method: "PUT", body: "payload" });
      expect(server.requests[1]).toMatchObject({ method: "PUT", url: "/new", body: "payload" });
    });

    it("drops Authorization when the redirect goes to another origin, not within one", async () => {
      const other = await startServer((_req, res) => res.end("other"));
      const server = await startServer((req, res) => {
        if (req.url === "/here") res.writeHead(302, { location: "/there" }).end();
        else if (req.url === "/away") res.writeHead(302, { location: `${other.origin}/x` }).end();
        else res.end();
      });
      const fetch = nodeFetch();
      await fetch(`${server.origin}/here`, { headers: { authorization: "token secret" } });
      expect(server.requests[1]?.headers.authorization).toBe("token secret");
      const response = await fetch(`${server.origin}/away`, {
        headers: { authorization: "token secret" },
      });
      expect(await response.text()).toBe("other");
      expect(other.requests[0]?.headers.authorization).toBeUndefined();
    });

    it("ends a redirect loop with 'fetch failed' after 20 redirects", async () => {
      const server = await startServer((_req, res) => res.writeHead(302, { location: "/" }).end());
      const error = await nodeFetch()(server.origin).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).toBe("fetch failed");
      expect(server.requests).toHaveLength(21);
    });

    it("returns the redirect itself when manual, and fails when error", async () => {
      const server = await startServer((_req, res) => res.writeHead(301, { location: "/b" }).end());
      const fetch = nodeFetch();
      const response = await fetch(`${server.origin}/a`, { redirect: "manual" });
      expect(response.status).toBe(301);
      expect(response.headers.get("location")).toBe("/b");
      expect(response.redirected).toBe(false);
      await expect(fetch(`${server.origin}/a`, { redirect: "error" })).rejects.toThrow(
        "fetch failed",
      );
      expect(server.requests).toHaveLength(2);
    });
  });

  it("decodes a gzip-encoded answer", async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { "content-encoding": "gzip", "content-type": "application/json" });
      res.end(gzipSync(JSON.stringify({ zipped: true })));
    });
    const response = await nodeFetch()(server.origin);
    expect(await response.json()).toEqual({ zipped: true });
    expect(response.headers.get("content-encoding")).toBe("gzip");
  });

  it("reuses one kept-alive socket for sequential requests", async () => {
    const server = await startServer((_req, res) => res.end("again"));
    const fetch = nodeFetch();
    for (let index = 0; index < 5; index += 1) {
      expect(await (await fetch(server.origin, { method: "POST", body: "x" })).text()).toBe(
        "again",
      );
    }
    expect(server.connections).toBe(1);
  });

  it("sends 40 requests to one origin at once: the providers' own caps govern, not the agent", async () => {
    const held: ServerResponse[] = [];
    const all = deferred();
    const server = await startServer((_req, res) => {
      held.push(res);
      if (held.length === 40) all.resolve();
    });
    const fetch = nodeFetch();
    const pending = Array.from({ length: 40 }, () => fetch(server.origin).then((r) => r.text()));
    await all.promise;
    for (const res of held) res.end("done");
    expect(await Promise.all(pending)).toEqual(Array(40).fill("done"));
    expect(server.connections).toBe(40);
  });

  it("sends what it does not handle itself to the fallback", async () => {
    const seen: string[] = [];
    const fetch = nodeFetch({
      fallback: async (input) => {
        seen.push(String(input));
        return new Response("fallback");
      },
    });
    const server = await startServer((_req, res) => res.end());
    await fetch("data:text/plain,hi");
    await fetch(server.origin, {
      method: "POST",
      body: new ReadableStream({ start: (controller) => controller.close() }),
      duplex: "half",
    } as RequestInit);
    expect(seen).toEqual(["data:text/plain,hi", server.origin]);
    expect(server.connections).toBe(0);
  });
});
