import { describe, expect, it } from "vitest";
import { parseRetryAfter } from "../../src/llm/parse-retry-after.js";

const now = Date.parse("2026-08-06T00:00:00Z");

describe("parseRetryAfter", () => {
  it("reads seconds, fractional seconds and retry-after-ms (which wins)", () => {
    expect(parseRetryAfter(new Headers({ "retry-after": "12" }), now)).toBe(12_000);
    expect(parseRetryAfter(new Headers({ "retry-after": "0.25" }), now)).toBe(250);
    expect(
      parseRetryAfter(new Headers({ "retry-after": "12", "retry-after-ms": "1500" }), now),
    ).toBe(1_500);
  });

  it("reads an HTTP date relative to the injected clock, never negative", () => {
    expect(
      parseRetryAfter(new Headers({ "retry-after": "Thu, 06 Aug 2026 00:00:30 GMT" }), now),
    ).toBe(30_000);
    expect(
      parseRetryAfter(new Headers({ "retry-after": "Wed, 05 Aug 2026 23:00:00 GMT" }), now),
    ).toBe(0);
  });

  it("ignores what is absent or unreadable", () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter(new Headers(), now)).toBeUndefined();
    expect(parseRetryAfter(new Headers({ "retry-after": "soon" }), now)).toBeUndefined();
    expect(parseRetryAfter(new Headers({ "retry-after": "-5" }), now)).toBeUndefined();
    expect(parseRetryAfter(new Headers({ "retry-after-ms": "x" }), now)).toBeUndefined();
  });
});
