import http from "node:http";
import https from "node:https";
import { fetchFailed, REDIRECT_STATUSES, sendNodeRequest } from "./send-node-request.js";
import { type NodeRequest, toNodeRequest } from "./to-node-request.js";

export interface NodeFetchOptions {
  /**
   * Sockets per origin; unbounded by default, as undici's: the providers' `concurrency` caps
   * the model calls, and a lower cap here would queue calls behind minutes-long ones while
   * they hold their provider's slots.
   */
  maxSockets?: number;
  /** A body that ends within this many bytes arrives as one Buffer, no web stream; default 1 MiB. */
  bufferBytes?: number;
  /** Silence allowed while waiting for headers or body bytes; default 300 s, undici's own. */
  idleTimeoutMs?: number;
  /** Sends what node:http does not here (another scheme, a streamed body); the global fetch by default. */
  fallback?: typeof fetch;
}

/** A fetch over node:http that owns its keep-alive sockets. */
export interface NodeFetch {
  (input: string | URL | Request, init?: RequestInit): Promise<Response>;
  /** Destroys every socket of this fetch (idle or in use); a later call opens new ones. */
  close(): void;
}

const MAX_REDIRECTS = 20;
/** Headers that describe a body, dropped with it when a redirect turns a request into a GET. */
const BODY_HEADERS = [
  "content-encoding",
  "content-language",
  "content-location",
  "content-type",
  "content-length",
];
/** Credentials that never follow a redirect to another origin. */
const ORIGIN_HEADERS = ["authorization", "proxy-authorization", "cookie", "host"];

/**
 * A `fetch` on node:http and node:https with keep-alive agents, for the requests the app's
 * clients make. It spends a fraction of the CPU of the global fetch (undici's web streams and
 * wasm parser): a body that ends within `bufferBytes` becomes the Response's Buffer body. It
 * behaves as fetch does where they rely on it: redirects (follow, manual, error; Authorization
 * dropped across origins), abort with the signal's reason, transport failures as
 * `TypeError("fetch failed")` whose cause keeps its `code`, gzip/deflate/br decoded. A body
 * not in memory, or a scheme other than http(s), goes to `fallback`.
 */
export function createNodeFetch(options: NodeFetchOptions = {}): NodeFetch {
  const maxSockets = options.maxSockets ?? Number.POSITIVE_INFINITY;
  const httpAgent = new http.Agent({ keepAlive: true, maxSockets });
  let httpsAgent: https.Agent | undefined;
  const settings = {
    agents: {
      http: httpAgent,
      https: () => {
        httpsAgent ??= new https.Agent({ keepAlive: true, maxSockets });
        return httpsAgent;
      },
    },
    bufferBytes: options.bufferBytes ?? 1024 * 1024,
    idleTimeoutMs: options.idleTimeoutMs ?? 300_000,
  };
  const fallback: typeof fetch = options.fallback ?? ((input, init) => fetch(input, init));

  async function nodeFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    const first = await toNodeRequest(input, init);
    if (first === null) return fallback(input, init);
    let request = first;
    for (let redirects = 0; ; redirects += 1) {
      if (request.signal?.aborted) throw request.signal.reason;
      const response = await sendNodeRequest(request, settings);
      const location = REDIRECT_STATUSES.has(response.status)
        ? response.headers.get("location")
        : null;
      if (location === null || request.redirect === "manual") {
        return withUrl(response, request.url, redirects > 0);
      }
      // Nothing of a followed redirect's body is read: its socket is freed.
      await response.body?.cancel();
      if (request.redirect === "error") throw fetchFailed(new Error("unexpected redirect"));
      if (redirects === MAX_REDIRECTS) throw fetchFailed(new Error("redirect count exceeded"));
      request = redirected(request, response.status, location);
    }
  }

  return Object.assign(nodeFetch, {
    close() {
      httpAgent.destroy();
      httpsAgent?.destroy();
    },
  });
}

/** The request a redirect asks for, as fetch's "follow" makes it. */
function redirected(request: NodeRequest, status: number, location: string): NodeRequest {
  let url: URL;
  try {
    url = new URL(location, request.url);
  } catch (error) {
    throw fetchFailed(error);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw fetchFailed(new Error("URL scheme must be a HTTP(S) scheme"));
  }
  url.hash = "";
  const headers = new Headers(request.headers);
  let { method, body } = request;
  if (
    (status === 303 && method !== "GET" && method !== "HEAD") ||
    ((status === 301 || status === 302) && method === "POST")
  ) {
    method = "GET";
    body = null;
    for (const name of BODY_HEADERS) headers.delete(name);
  }
  if (url.origin !== request.url.origin) {
    for (const name of ORIGIN_HEADERS) headers.delete(name);
  }
  return { ...request, url, method, headers, body };
}

/** Response's `url` and `redirected` are read-only getters: set on the instance. */
function withUrl(response: Response, url: URL, redirected: boolean): Response {
  Object.defineProperty(response, "url", { value: url.href, enumerable: true });
  if (redirected) Object.defineProperty(response, "redirected", { value: true, enumerable: true });
  return response;
}
