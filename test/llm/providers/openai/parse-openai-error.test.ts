import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  InternalServerError,
  RateLimitError,
} from "openai";
import { describe, expect, it } from "vitest";
import { ModelAbortedError, ModelError, ModelTimeoutError } from "../../../../src/llm/errors.js";
import { parseOpenAIError } from "../../../../src/llm/providers/openai/parse-openai-error.js";

const KEY = "sk-live-planted-key-000111222";
const context = { provider: "openai", secrets: [KEY], now: Date.parse("2026-08-06T00:00:00Z") };

describe("parseOpenAIError", () => {
  it("maps a 429 with retry-after-ms to a retryable error with that wait", () => {
    const error = new RateLimitError(
      429,
      { message: "Rate limit reached" },
      undefined,
      new Headers({ "retry-after-ms": "1200", "retry-after": "2" }),
    );
    const parsed = parseOpenAIError(error, context);
    expect(parsed).toBeInstanceOf(ModelError);
    expect(parsed).toMatchObject({
      message: "openai: HTTP 429: Rate limit reached",
      statusCode: 429,
      isRetryable: true,
      retryAfterMs: 1_200,
    });
  });

  it.each([
    [400, false],
    [401, false],
    [404, false],
    [422, false],
    [408, true],
    [409, true],
    [500, true],
    [503, true],
  ])("status %i is retryable: %s", (status, retryable) => {
    const error = APIError.generate(status, { error: { message: "x" } }, undefined, new Headers());
    expect(parseOpenAIError(error, context)).toMatchObject({
      statusCode: status,
      isRetryable: retryable,
    });
  });

  it("says nothing more than the status when the body is empty", () => {
    const error = new InternalServerError(500, undefined, undefined, new Headers());
    expect(parseOpenAIError(error, context).message).toBe("openai: HTTP 500");
  });

  it("redacts the key and bearer tokens from the provider's message, and caps its length", () => {
    const error = new APIError(
      401,
      {
        message: `Incorrect API key provided: ${KEY}; sent Bearer ${KEY.slice(3)} ${"x".repeat(1_000)}`,
      },
      undefined,
      new Headers(),
    );
    const parsed = parseOpenAIError(error, context);
    expect(parsed.message).toContain(
      "Incorrect API key provided: [redacted]; sent Bearer [redacted]",
    );
    expect(parsed.message).not.toContain("planted");
    expect(parsed.message.length).toBeLessThan(400);
  });

  it("maps connection failures to retryable network errors naming only the code", () => {
    const cause = new TypeError("fetch failed", {
      cause: Object.assign(new Error("connect ECONNRESET"), { code: "ECONNRESET" }),
    });
    expect(parseOpenAIError(new APIConnectionError({ cause }), context)).toMatchObject({
      message: "openai: network error (ECONNRESET)",
      isRetryable: true,
    });
    expect(parseOpenAIError(new APIConnectionTimeoutError(), context)).toMatchObject({
      message: "openai: request timed out",
      isRetryable: true,
    });
  });

  it("maps aborts to ModelAbortedError, and a fired timeout signal to ModelTimeoutError", () => {
    expect(parseOpenAIError(new APIUserAbortError(), context)).toBeInstanceOf(ModelAbortedError);
    const controller = new AbortController();
    controller.abort(new DOMException("timed out", "TimeoutError"));
    expect(
      parseOpenAIError(new APIUserAbortError(), { ...context, signal: controller.signal }),
    ).toBeInstanceOf(ModelTimeoutError);
  });

  it("keeps other errors as non-retryable, redacted", () => {
    const parsed = parseOpenAIError(new Error(`weird ${KEY}`), context);
    expect(parsed).toMatchObject({ message: "openai: weird [redacted]", isRetryable: false });
  });
});
