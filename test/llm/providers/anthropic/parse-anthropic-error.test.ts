import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { ModelAbortedError, ModelError, ModelTimeoutError } from "../../../../src/llm/errors.js";
import { parseAnthropicError } from "../../../../src/llm/providers/anthropic/parse-anthropic-error.js";

const KEY = "sk-ant-planted-key-000111222";
const context = { provider: "claude", secrets: [KEY], now: Date.parse("2026-08-06T00:00:00Z") };

function apiError(
  status: number,
  type: string,
  message: string,
  headers: Record<string, string> = {},
) {
  return APIError.generate(
    status,
    { type: "error", error: { type, message } },
    undefined,
    new Headers(headers),
  );
}

describe("parseAnthropicError", () => {
  it("maps 529 overloaded_error to a retryable error naming the type, with its retry-after", () => {
    const parsed = parseAnthropicError(
      apiError(529, "overloaded_error", "Overloaded", { "retry-after": "3" }),
      context,
    );
    expect(parsed).toBeInstanceOf(ModelError);
    expect(parsed).toMatchObject({
      message: "claude: HTTP 529: overloaded_error: Overloaded",
      statusCode: 529,
      isRetryable: true,
      retryAfterMs: 3_000,
    });
  });

  it("takes an HTTP date in retry-after relative to now", () => {
    const parsed = parseAnthropicError(
      apiError(429, "rate_limit_error", "slow down", {
        "retry-after": "Thu, 06 Aug 2026 00:00:05 GMT",
      }),
      context,
    );
    expect(parsed).toMatchObject({ statusCode: 429, isRetryable: true, retryAfterMs: 5_000 });
  });

  it.each([
    [400, "invalid_request_error", false],
    [401, "authentication_error", false],
    [403, "permission_error", false],
    [404, "not_found_error", false],
    [413, "request_too_large", false],
    [408, "timeout_error", true],
    [429, "rate_limit_error", true],
    [500, "api_error", true],
    [503, "api_error", true],
  ])("status %i (%s) is retryable: %s", (status, type, retryable) => {
    expect(parseAnthropicError(apiError(status, type, "x"), context)).toMatchObject({
      statusCode: status,
      isRetryable: retryable,
      message: `claude: HTTP ${status}: ${type}: x`,
    });
  });

  it("keeps a gateway's plain body as the detail", () => {
    const error = APIError.generate(502, "Bad Gateway from the proxy", undefined, new Headers());
    const parsed = parseAnthropicError(error, context);
    expect(parsed).toMatchObject({ statusCode: 502, isRetryable: true });
    expect(parsed.message).toContain("Bad Gateway from the proxy");
  });

  it("redacts the key when the API echoes it", () => {
    const parsed = parseAnthropicError(
      apiError(401, "authentication_error", `invalid x-api-key: ${KEY}`),
      context,
    );
    for (const text of [parsed.message, parsed.publicMessage, JSON.stringify(parsed)]) {
      expect(text).not.toContain(KEY);
    }
    expect(parsed.message).toBe(
      "claude: HTTP 401: authentication_error: invalid x-api-key: [redacted]",
    );
  });

  it("maps timeouts and network errors to retryable errors", () => {
    expect(parseAnthropicError(new APIConnectionTimeoutError(), context)).toMatchObject({
      message: "claude: request timed out",
      isRetryable: true,
    });
    const refused = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
    const network = parseAnthropicError(
      new APIConnectionError({ message: "Connection error.", cause: refused }),
      context,
    );
    expect(network).toMatchObject({ isRetryable: true });
    expect(network.message).toMatch(/^claude: network error \(/);
  });

  it("maps the client's abort to ModelAbortedError, and a fired signal to its reason", () => {
    expect(parseAnthropicError(new APIUserAbortError(), context)).toBeInstanceOf(ModelAbortedError);
    const signal = AbortSignal.abort(new DOMException("t", "TimeoutError"));
    expect(parseAnthropicError(new Error("whatever"), { ...context, signal })).toBeInstanceOf(
      ModelTimeoutError,
    );
  });

  it("redacts an unknown error's message and is not retryable", () => {
    const parsed = parseAnthropicError(new Error(`boom ${KEY}`), context);
    expect(parsed).toMatchObject({ message: "claude: boom [redacted]", isRetryable: false });
  });
});
