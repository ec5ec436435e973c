import { describe, expect, it } from "vitest";
import { bufferedResponse } from "../../src/http/buffered-response.js";

const init = {
  status: 201,
  statusText: "Created",
  headers: new Headers({ "content-type": "application/json", etag: '"abc"' }),
};
const json = () => Buffer.from('{"answer":42,"text":"h\u00e9llo"}');

/** What a real Response of the same bytes reads as, for comparison. */
function realResponse(bytes: Buffer): Response {
  return new Response(bytes, init);
}

describe("bufferedResponse", () => {
  it("is a Response with the status, status text and headers it was given", () => {
    const response = bufferedResponse(json(), init);
    expect(response).toBeInstanceOf(Response);
    expect(response.status).toBe(201);
    expect(response.ok).toBe(true);
    expect(response.statusText).toBe("Created");
    expect(response.headers.get("etag")).toBe('"abc"');
    expect(response.bodyUsed).toBe(false);
  });

  it("reads as a real Response of the same bytes does, by every reader", async () => {
    const readers = ["text", "json", "arrayBuffer", "blob"] as const;
    for (const reader of readers) {
      const ours = await bufferedResponse(json(), init)[reader]();
      const theirs = await realResponse(json())[reader]();
      if (reader === "blob") {
        expect((ours as Blob).type).toBe((theirs as Blob).type);
        expect(await (ours as Blob).text()).toBe(await (theirs as Blob).text());
      } else if (reader === "arrayBuffer") {
        expect(Buffer.from(ours as ArrayBuffer)).toEqual(Buffer.from(theirs as ArrayBuffer));
      } else expect(ours).toEqual(theirs);
    }
  });

  it("drops a UTF-8 byte order mark and replaces invalid bytes, as fetch's text() does", async () => {
    const bytes = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from("ok "),
      Buffer.from([0xff]),
    ]);
    const text = await bufferedResponse(bytes, init).text();
    expect(text).toBe(await realResponse(bytes).text());
    expect(text).toBe("ok \ufffd");
  });

  it("rejects a malformed JSON body as a SyntaxError", async () => {
    await expect(bufferedResponse(Buffer.from("{nope"), init).json()).rejects.toThrow(SyntaxError);
  });

  it("is read once: a second read rejects and a clone after it throws", async () => {
    const response = bufferedResponse(json(), init);
    await response.text();
    expect(response.bodyUsed).toBe(true);
    await expect(response.json()).rejects.toThrow(/Body is unusable/);
    await expect(response.arrayBuffer()).rejects.toThrow(TypeError);
    expect(() => response.clone()).toThrow(TypeError);
    // Its stream, asked for after the read, is already disturbed, as a real one's is.
    expect(response.body).not.toBeNull();
    const real = realResponse(json());
    await real.text();
    expect(() => new Response(real.body)).toThrow(/disturbed or locked/);
    expect(() => new Response(response.body)).toThrow(/disturbed or locked/);
  });

  it("hands its body over as a stream on demand, and reads go through that stream from then on", async () => {
    const response = bufferedResponse(json(), init);
    const stream = response.body;
    expect(stream).toBeInstanceOf(ReadableStream);
    expect(response.body).toBe(stream);
    expect(response.bodyUsed).toBe(false);
    const chunks: Uint8Array[] = [];
    for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) chunks.push(chunk);
    expect(Buffer.concat(chunks).toString()).toBe(json().toString());
    expect(response.bodyUsed).toBe(true);
    await expect(response.text()).rejects.toThrow(TypeError);
  });

  it("clones unread with its url and redirected kept, each copy read on its own", async () => {
    const response = bufferedResponse(json(), init);
    Object.defineProperty(response, "url", { value: "http://127.0.0.1/x", enumerable: true });
    Object.defineProperty(response, "redirected", { value: true, enumerable: true });
    const copy = response.clone();
    expect(copy.url).toBe("http://127.0.0.1/x");
    expect(copy.redirected).toBe(true);
    expect(await copy.json()).toEqual({ answer: 42, text: "h\u00e9llo" });
    expect(await response.json()).toEqual({ answer: 42, text: "h\u00e9llo" });
  });

  it("gives each arrayBuffer its own memory, not the pooled Buffer's", async () => {
    const pool = Buffer.from("xxxxhelloyyyy");
    const view = pool.subarray(4, 9);
    const buffer = await bufferedResponse(view, init).arrayBuffer();
    expect(buffer.byteLength).toBe(5);
    new Uint8Array(buffer)[0] = 0x4a;
    expect(pool.toString()).toBe("xxxxhelloyyyy");
  });
});
