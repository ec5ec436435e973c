import { describe, expect, it } from "vitest";
import { describeNetworkError } from "../../src/llm/describe-network-error.js";

function withCode(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

describe("describeNetworkError", () => {
  it("finds a socket error code in the cause chain", () => {
    const error = new TypeError("fetch failed", {
      cause: withCode("connect ECONNREFUSED 127.0.0.1:1", "ECONNREFUSED"),
    });
    expect(describeNetworkError(error)).toBe("ECONNREFUSED");
    expect(describeNetworkError(withCode("read ECONNRESET", "ECONNRESET"))).toBe("ECONNRESET");
  });

  it("falls back to the fixed phrase, never the rest of the message", () => {
    expect(describeNetworkError(new TypeError("fetch failed"))).toBe("fetch failed");
    expect(describeNetworkError(new Error("socket hang up at https://host/?key=secret"))).toBe(
      "socket hang up",
    );
  });

  it("is undefined for other failures", () => {
    expect(describeNetworkError(new Error("Unexpected token < in JSON"))).toBeUndefined();
    expect(describeNetworkError(withCode("nope", "ENOENT"))).toBeUndefined();
    expect(describeNetworkError("fetch failed")).toBeUndefined();
  });
});
