/** One request as node:http sends it: the body already in memory, headers validated by Headers. */
export interface NodeRequest {
  url: URL;
  method: string;
  headers: Headers;
  body: Buffer | null;
  signal: AbortSignal | null;
  redirect: NonNullable<RequestInit["redirect"]>;
}

/** fetch normalises these methods' case (and only these: `patch` stays as written). */
const NORMALISED_METHODS = new Set(["DELETE", "GET", "HEAD", "OPTIONS", "POST", "PUT"]);

/**
 * Reads fetch's arguments into a NodeRequest, or null for a request only the global fetch
 * should send: a scheme other than http(s), or a body that is not already in memory (a
 * stream, a Blob, FormData). Throws fetch's TypeErrors for what fetch refuses.
 */
export async function toNodeRequest(
  input: string | URL | Request,
  init: RequestInit | undefined,
): Promise<NodeRequest | null> {
  const request = input instanceof Request ? input : null;
  const url = new URL(request === null ? String(input) : request.url);
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  const initBody = init?.body;
  const inMemory = toBytes(initBody);
  if (inMemory === undefined) return null;
  if (url.username !== "" || url.password !== "") {
    throw new TypeError("Request cannot be constructed from a URL that includes credentials");
  }
  url.hash = "";
  const written = init?.method ?? request?.method ?? "GET";
  const upper = written.toUpperCase();
  const method = NORMALISED_METHODS.has(upper) ? upper : written;
  const headers = new Headers(init?.headers ?? request?.headers);
  let body = inMemory.bytes;
  if (initBody === undefined && request?.body) {
    // A Request's body is a stream: read it whole, as the body of a retried redirect must be.
    body = Buffer.from(await request.arrayBuffer());
  } else if (inMemory.type !== null && !headers.has("content-type")) {
    headers.set("content-type", inMemory.type);
  }
  if (body !== null && (method === "GET" || method === "HEAD")) {
    throw new TypeError("Request with GET/HEAD method cannot have body.");
  }
  return {
    url,
    method,
    headers,
    body,
    signal: init?.signal === undefined ? (request?.signal ?? null) : init.signal,
    redirect: init?.redirect ?? request?.redirect ?? "follow",
  };
}

/**
 * A body fetch accepts, as bytes (copied, so the caller may reuse its buffer) with the
 * content type fetch would give it; undefined for a body that is not in memory.
 */
function toBytes(body: unknown): { bytes: Buffer | null; type: string | null } | undefined {
  if (body === undefined || body === null) return { bytes: null, type: null };
  if (typeof body === "string") {
    return { bytes: Buffer.from(body, "utf8"), type: "text/plain;charset=UTF-8" };
  }
  if (body instanceof URLSearchParams) {
    return {
      bytes: Buffer.from(body.toString(), "utf8"),
      type: "application/x-www-form-urlencoded;charset=UTF-8",
    };
  }
  if (body instanceof ArrayBuffer) return { bytes: Buffer.from(new Uint8Array(body)), type: null };
  if (ArrayBuffer.isView(body) && body.buffer instanceof ArrayBuffer) {
    const view = new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
    return { bytes: Buffer.from(view), type: null };
  }
  return undefined;
}
