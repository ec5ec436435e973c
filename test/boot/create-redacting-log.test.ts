import { describe, expect, it, vi } from "vitest";
import { redactingStream } from "../../src/boot/create-redacting-log.js";

describe("redactingStream", () => {
  const pem = '-----BEGIN KEY-----\nline"one\n-----END KEY-----';
  const secrets = ["a-webhook-secret-value", pem];

  it("redacts each line, a secret written as is or JSON-escaped", () => {
    const lines: string[] = [];
    const stream = redactingStream({ write: (chunk: string) => lines.push(chunk) }, secrets);
    stream.write(`{"msg":"got a-webhook-secret-value","key":${JSON.stringify(pem)}}\n`);
    expect(lines).toEqual(['{"msg":"got [redacted]","key":"[redacted]"}\n']);
  });

  it("prepares its secrets once for the stream, not once a line", () => {
    const lines: string[] = [];
    const stream = redactingStream({ write: (chunk: string) => lines.push(chunk) }, secrets);
    const sort = vi.spyOn(Array.prototype, "sort");
    try {
      for (let line = 0; line < 50; line += 1) stream.write(`{"msg":"a-webhook-secret-value"}\n`);
      expect(sort).not.toHaveBeenCalled();
    } finally {
      sort.mockRestore();
    }
    expect(new Set(lines)).toEqual(new Set(['{"msg":"[redacted]"}\n']));
  });
});
