import { describe, expect, it } from "vitest";
import { redactSecrets } from "../../src/llm/redact-secrets.js";

describe("redactSecrets", () => {
  it("removes every occurrence of each known value", () => {
    const key = "k3y-VALUE-that-is-long";
    expect(redactSecrets(`a ${key} b ${key}`, [key])).toBe("a [redacted] b [redacted]");
  });

  it("removes the longer of two overlapping secrets whole", () => {
    expect(redactSecrets("x abcdef123456 y", ["abcdef", "abcdef123456"])).toBe("x [redacted] y");
  });

  it("removes bearer tokens and sk- keys it was not told about", () => {
    expect(redactSecrets("Authorization: Bearer abc.def-ghi", [])).toBe(
      "Authorization: Bearer [redacted]",
    );
    expect(redactSecrets("key sk-proj-AbCdEf123456789 rejected", [])).toBe(
      "key [redacted] rejected",
    );
  });

  it("leaves ordinary text and very short values alone", () => {
    expect(redactSecrets("model not found", ["a", undefined, ""])).toBe("model not found");
    expect(redactSecrets("the task-list is long", [])).toBe("the task-list is long");
  });
});
