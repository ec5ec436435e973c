import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from "@anthropic-ai/sdk";
import { abortError } from "../../abort-error.js";
import { describeNetworkError } from "../../describe-network-error.js";
import { ModelAbortedError, ModelError } from "../../errors.js";
import { httpModelError } from "../../http-model-error.js";
import { parseRetryAfter } from "../../parse-retry-after.js";
import { redactSecrets } from "../../redact-secrets.js";

export interface ParseAnthropicErrorContext {
  /** The provider's configured name, which prefixes every message. */
  provider: string;
  /** Values that must never appear in a message (the API key). */
  secrets: readonly (string | undefined)[];
  /** For Retry-After given as an HTTP date. */
  now: number;
  /** The caller's signal: once it has fired, every failure is that abort. */
  signal?: AbortSignal | undefined;
}

/**
 * Maps anything `@anthropic-ai/sdk` throws to a ModelError the retry policy understands:
 * 429, 5xx and 529 (`overloaded_error`) retryable, honouring `retry-after`; the API's error
 * type and message kept as the detail (redacted and capped by httpModelError).
 */
export function parseAnthropicError(
  error: unknown,
  context: ParseAnthropicErrorContext,
): ModelError {
  if (context.signal?.aborted) {
    return abortError(context.signal);
  }
  if (error instanceof ModelError) {
    return error;
  }
  if (error instanceof APIUserAbortError) {
    return new ModelAbortedError();
  }
  if (error instanceof APIConnectionTimeoutError) {
    return new ModelError(`${context.provider}: request timed out`, { isRetryable: true });
  }
  if (error instanceof APIConnectionError) {
    const description = describeNetworkError(error) ?? "connection error";
    return new ModelError(`${context.provider}: network error (${description})`, {
      isRetryable: true,
    });
  }
  if (error instanceof APIError && typeof error.status === "number") {
    return httpModelError({
      provider: context.provider,
      status: error.status,
      detail: apiErrorDetail(error),
      retryAfterMs: parseRetryAfter(error.headers, context.now),
      secrets: context.secrets,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ModelError(`${context.provider}: ${redactSecrets(message, context.secrets)}`);
}

/** "overloaded_error: Overloaded" from `{type: "error", error: {type, message}}`. */
function apiErrorDetail(error: APIError): string {
  const parts = [error.type, error.apiMessage].filter(
    (part): part is string => typeof part === "string" && part !== "",
  );
  if (parts.length > 0) return parts.join(": ");
  // A gateway's own body (plain text, another JSON shape): the client's formatting of it.
  const detail = error.message.replace(/^\d{3}\s+/, "");
  return detail === "status code (no body)" ? "" : detail;
}
