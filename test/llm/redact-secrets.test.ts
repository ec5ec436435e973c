import { describe, expect, it, vi } from "vitest";
import { createRedactor, redactSecrets } from "../../src/llm/redact-secrets.js";

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

describe("createRedactor", () => {
  it("redacts as redactSecrets does: every occurrence, the longer of overlapping secrets whole", () => {
    const key = "k3y-VALUE-that-is-long";
    for (const secrets of [
      [key, "abcdef", "abcdef123456"],
      ["abcdef", key, "abcdef123456"],
      ["abcdef123456", "abcdef", key],
    ]) {
      const redact = createRedactor(secrets);
      const text = `a ${key} b abcdef123456 c abcdef d sk-proj-AbCdEf123456789`;
      expect(redact(text)).toBe("a [redacted] b [redacted] c [redacted] d [redacted]");
      expect(redact(text)).toBe(redactSecrets(text, secrets));
    }
  });

  it("prepares its list once: changing the list afterwards changes nothing", () => {
    const secrets: (string | undefined)[] = ["abcdef", "abcdef123456"];
    const redact = createRedactor(secrets);
    // Were the list read again per call, the emptied list would redact nothing and the
    // re-sorted one would cut the longer secret after its first six characters.
    secrets.sort((a, b) => (a?.length ?? 0) - (b?.length ?? 0));
    expect(redact("x abcdef123456 y")).toBe("x [redacted] y");
    secrets.length = 0;
    secrets.push("other-secret-value");
    expect(redact("x abcdef123456 y abcdef z other-secret-value")).toBe(
      "x [redacted] y [redacted] z other-secret-value",
    );
  });

  it("sorts nothing once built, however many texts it redacts", () => {
    const redact = createRedactor(["abcdef", "abcdef123456", "k3y-VALUE-that-is-long"]);
    const sort = vi.spyOn(Array.prototype, "sort");
    try {
      for (let line = 0; line < 100; line += 1) redact(`line ${line}: abcdef123456`);
      expect(sort).not.toHaveBeenCalled();
    } finally {
      sort.mockRestore();
    }
  });
});
