import { describe, expect, it } from "vitest";
import { ModelAbortedError, ModelError } from "../../../../src/llm/errors.js";
import { parseOllamaError } from "../../../../src/llm/providers/ollama/parse-ollama-error.js";

const KEY = "ollama-planted-key-abcdef";
const now = Date.parse("2026-08-06T00:00:00Z");
const context = { provider: "ollama-cloud", secrets: [KEY], now };

/** The shape of the `ollama` client's ResponseError. */
function responseError(message: string, status: number): Error {
  return Object.assign(new Error(message), {
    name: "ResponseError",
    error: message,
    status_code: status,
  });
}

describe("parseOllamaError", () => {
  it("maps a ResponseError with the headers the adapter kept", () => {
    const parsed = parseOllamaError(responseError("too many requests", 429), {
      ...context,
      headers: new Headers({ "retry-after": "Thu, 06 Aug 2026 00:00:05 GMT" }),
    });
    expect(parsed).toMatchObject({
      message: "ollama-cloud: HTTP 429: too many requests",
      statusCode: 429,
      isRetryable: true,
      retryAfterMs: 5_000,
    });
  });

  it("does not retry a client error", () => {
    expect(parseOllamaError(responseError('model "x" not found', 404), context)).toMatchObject({
      statusCode: 404,
      isRetryable: false,
    });
  });

  it("redacts the key from the server's words", () => {
    expect(parseOllamaError(responseError(`bad key ${KEY}`, 401), context).message).toBe(
      "ollama-cloud: HTTP 401: bad key [redacted]",
    );
  });

  it("maps fetch failures to retryable network errors", () => {
    const error = new TypeError("fetch failed", {
      cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:11434"), {
        code: "ECONNREFUSED",
      }),
    });
    expect(parseOllamaError(error, context)).toMatchObject({
      message: "ollama-cloud: network error (ECONNREFUSED)",
      isRetryable: true,
    });
  });

  it("tells the caller's abort from the provider's own request timeout", () => {
    const abortError = new DOMException("This operation was aborted", "AbortError");
    expect(
      parseOllamaError(abortError, { ...context, signal: AbortSignal.abort() }),
    ).toBeInstanceOf(ModelAbortedError);
    const timeout = new AbortController();
    timeout.abort();
    expect(
      parseOllamaError(abortError, { ...context, timeoutSignal: timeout.signal }),
    ).toMatchObject({
      message: "ollama-cloud: request timed out",
      isRetryable: true,
    });
  });

  it("keeps anything else as a non-retryable ModelError", () => {
    const parsed = parseOllamaError(new SyntaxError("Unexpected token"), context);
    expect(parsed).toBeInstanceOf(ModelError);
    expect(parsed.isRetryable).toBe(false);
  });
});
