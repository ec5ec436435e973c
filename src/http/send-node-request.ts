import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import type { Readable } from "node:stream";
import { bufferedResponse } from "./buffered-response.js";
import { decodeContent } from "./decode-content.js";
import type { NodeRequest } from "./to-node-request.js";

export interface SendSettings {
  agents: { http: http.Agent; https: () => https.Agent };
  /** A body that ends within this many bytes is handed over whole, without a web stream. */
  bufferBytes: number;
  /** Silence allowed while waiting for headers or body bytes, as undici's 300 s timeouts. */
  idleTimeoutMs: number;
}

/** Statuses whose Response has no body. */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);
/** Statuses fetch follows when they carry a Location. */
export const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** The stream's own queue past the bytes read while deciding to stream. */
const STREAM_HIGH_WATER_BYTES = 64 * 1024;

/** fetch's rejection for a transport failure: the socket's error, with its `code`, as cause. */
export function fetchFailed(cause: unknown): TypeError {
  return new TypeError("fetch failed", { cause });
}

/**
 * One exchange, no redirect followed: the Response once the body ended within
 * `bufferBytes` (a Buffer body), or as soon as it grew past it (a stream that yields the
 * bytes read so far, then the rest, paced by its reader). An abort of `request.signal`
 * destroys the socket and rejects with the signal's reason, or errors a streaming body.
 */
export function sendNodeRequest(request: NodeRequest, settings: SendSettings): Promise<Response> {
  return new Promise((resolve, reject) => {
    const { signal } = request;
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    headers.accept ??= "*/*";
    headers["accept-encoding"] ??= "gzip, deflate, br";
    if (request.body !== null) headers["content-length"] = String(request.body.length);
    const secure = request.url.protocol === "https:";
    const req = (secure ? https : http).request(request.url, {
      method: request.method,
      headers,
      agent: secure ? settings.agents.https() : settings.agents.http,
    });
    let res: IncomingMessage | undefined;
    let body: Readable | undefined;
    let stream: ReadableStreamDefaultController<Uint8Array> | undefined;
    let settled = false;
    let finished = false;
    let timer: NodeJS.Timeout | undefined;

    const finish = () => {
      finished = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    };
    const fail = (error: unknown) => {
      if (finished) return;
      finish();
      body?.destroy();
      res?.destroy();
      req.destroy();
      if (!settled) {
        settled = true;
        reject(error);
      } else {
        stream?.error(error);
      }
    };
    // Before the Response: fetch's "fetch failed"; while its body streams: "terminated".
    const failNetwork = (cause: unknown) =>
      fail(settled ? new TypeError("terminated", { cause }) : fetchFailed(cause));
    function onAbort() {
      fail(signal?.reason);
    }
    const onIdle = () =>
      failNetwork(
        res === undefined
          ? Object.assign(new Error("Headers Timeout Error"), { code: "UND_ERR_HEADERS_TIMEOUT" })
          : Object.assign(new Error("Body Timeout Error"), { code: "UND_ERR_BODY_TIMEOUT" }),
      );
    const wait = () => {
      if (timer === undefined) {
        timer = setTimeout(onIdle, settings.idleTimeoutMs);
        timer.unref();
      } else timer.refresh();
    };
    const stopWaiting = () => {
      clearTimeout(timer);
      timer = undefined;
    };
    const settle = (response: Response) => {
      settled = true;
      resolve(response);
    };

    signal?.addEventListener("abort", onAbort, { once: true });
    req.on("error", failNetwork);
    req.on("response", (incoming) => {
      res = incoming;
      wait();
      const status = incoming.statusCode ?? 0;
      let responseHeaders: Headers;
      try {
        responseHeaders = new Headers();
        const raw = incoming.rawHeaders;
        for (let index = 0; index + 1 < raw.length; index += 2) {
          responseHeaders.append(raw[index] as string, raw[index + 1] as string);
        }
      } catch (error) {
        failNetwork(error);
        return;
      }
      const init = { status, statusText: incoming.statusMessage ?? "", headers: responseHeaders };
      const respond = (content: Buffer | ReadableStream<Uint8Array> | null) => {
        try {
          settle(
            Buffer.isBuffer(content)
              ? bufferedResponse(content, init)
              : new Response(content, init),
          );
        } catch (error) {
          // A status Response refuses (outside 200..599): a broken answer for the caller.
          failNetwork(error);
        }
      };
      incoming.on("error", failNetwork);
      if (request.method === "HEAD" || NULL_BODY_STATUSES.has(status)) {
        incoming.on("end", finish);
        incoming.resume();
        respond(null);
        return;
      }
      // fetch leaves a redirect's body (it is thrown away or handed over as it came) coded.
      const coded = REDIRECT_STATUSES.has(status) && responseHeaders.has("location");
      const source = coded
        ? incoming
        : decodeContent(incoming, responseHeaders.get("content-encoding"), failNetwork);
      body = source;
      const chunks: Buffer[] = [];
      let size = 0;
      const onEnd = () => {
        // Answered before finishing: a Response refused must still reject the call.
        respond(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
        finish();
      };
      const onData = (chunk: Buffer) => {
        wait();
        chunks.push(chunk);
        size += chunk.length;
        if (size <= settings.bufferBytes) return;
        // Too big to hold: from here the reader's pace governs, and its byte limits apply.
        source.off("data", onData);
        source.off("end", onEnd);
        source.pause();
        stopWaiting();
        respond(
          new ReadableStream<Uint8Array>(
            {
              start(controller) {
                stream = controller;
                for (const buffered of chunks.splice(0)) controller.enqueue(buffered);
                source.on("data", (more: Buffer) => {
                  wait();
                  controller.enqueue(more);
                  if ((controller.desiredSize ?? 0) <= 0) {
                    source.pause();
                    stopWaiting();
                  }
                });
                source.on("end", () => {
                  finish();
                  controller.close();
                });
              },
              pull() {
                if (finished || !source.isPaused()) return;
                wait();
                source.resume();
              },
              cancel() {
                finish();
                source.destroy();
                incoming.destroy();
              },
            },
            { highWaterMark: STREAM_HIGH_WATER_BYTES, size: (chunk) => chunk.byteLength },
          ),
        );
      };
      source.on("data", onData);
      source.on("end", onEnd);
    });
    if (signal?.aborted) {
      onAbort();
      return;
    }
    wait();
    req.end(request.body ?? undefined);
  });
}
