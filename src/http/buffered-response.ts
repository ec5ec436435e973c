/**
 * A Response whose body is already one Buffer in memory. undici's Response wraps any body in a
 * web stream (made transferable) and reads it back through that stream: for a model call's or
 * a GitHub request's answer, about a sixth of the client's CPU. This one is a real Response
 * (made with no body) whose `text()`, `json()`, `arrayBuffer()`, `bytes()` and `blob()` read
 * the Buffer directly; the stream is made only if someone asks for `body` or `formData()`,
 * and from then on the body is that real Response's. As fetch's, a body is read once: a
 * second read, or a clone after it, is a TypeError.
 */
export function bufferedResponse(bytes: Buffer, init: ResponseInit): Response {
  const response = new Response(null, init);
  const bodyInit = {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  };
  let streamed: Response | undefined;
  let used = false;

  /** The bytes, once: fetch's "Body is unusable" on a second read. */
  const take = (): Buffer => {
    if (used) throw new TypeError("Body is unusable: Body has already been read");
    used = true;
    return bytes;
  };
  /** The body as a real Response's stream; already read if the Buffer was. */
  const stream = (): Response => {
    if (streamed === undefined) {
      streamed = new Response(bytes, bodyInit);
      // Reading it marks it disturbed at once, as the Buffer's read did.
      if (used) streamed.arrayBuffer().catch(() => undefined);
    }
    return streamed;
  };
  const arrayBuffer = async (): Promise<ArrayBuffer> => {
    if (streamed !== undefined) return streamed.arrayBuffer();
    const taken = take();
    return taken.buffer.slice(taken.byteOffset, taken.byteOffset + taken.byteLength) as ArrayBuffer;
  };

  const methods = {
    text: async () => (streamed === undefined ? utf8(take()) : streamed.text()),
    json: async () => (streamed === undefined ? JSON.parse(utf8(take())) : streamed.json()),
    arrayBuffer,
    bytes: async () => new Uint8Array(await arrayBuffer()),
    blob: async () => {
      if (streamed !== undefined) return streamed.blob();
      const type = response.headers.get("content-type");
      return new Blob([take()], type === null ? {} : { type });
    },
    formData: () => stream().formData(),
    clone: (): Response => {
      if (streamed !== undefined) return streamed.clone();
      if (used) throw new TypeError("Response.clone: Body has already been consumed.");
      const copy = bufferedResponse(bytes, bodyInit);
      // withUrl (create-node-fetch.ts) sets these on the instance; a clone keeps them.
      for (const name of ["url", "redirected"]) {
        const own = Object.getOwnPropertyDescriptor(response, name);
        if (own !== undefined) Object.defineProperty(copy, name, own);
      }
      return copy;
    },
  };
  for (const [name, value] of Object.entries(methods)) {
    Object.defineProperty(response, name, { value, configurable: true, writable: true });
  }
  Object.defineProperties(response, {
    body: { get: () => stream().body, configurable: true },
    bodyUsed: {
      get: () => (streamed === undefined ? used : streamed.bodyUsed),
      configurable: true,
    },
  });
  return response;
}

/** fetch's UTF-8 decode: a leading byte order mark is dropped, invalid bytes become U+FFFD. */
function utf8(bytes: Buffer): string {
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  return bytes.toString("utf8", bom ? 3 : 0);
}
