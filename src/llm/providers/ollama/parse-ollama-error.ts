import { abortError } from "../../abort-error.js";
import { describeNetworkError } from "../../describe-network-error.js";
import { ModelError } from "../../errors.js";
import { httpModelError } from "../../http-model-error.js";
import { type HeaderReader, parseRetryAfter } from "../../parse-retry-after.js";
import { redactSecrets } from "../../redact-secrets.js";

export interface ParseOllamaErrorContext {
  provider: string;
  secrets: readonly (string | undefined)[];
  now: number;
  /** The caller's signal: once it has fired, every failure is that abort. */
  signal?: AbortSignal | undefined;
  /** Fired when the per-request timeout of the provider config elapsed. */
  timeoutSignal?: AbortSignal | undefined;
  /** Headers of the error answer: the `ollama` client drops them, so the adapter keeps them. */
  headers?: HeaderReader | undefined;
}

/**
 * Maps what the `ollama` client throws to a ModelError. Its ResponseError carries the HTTP
 * status (`status_code`) and the body's `error` text; transport failures surface as fetch's
 * TypeError with the socket error as cause.
 */
export function parseOllamaError(error: unknown, context: ParseOllamaErrorContext): ModelError {
  if (context.signal?.aborted) {
    return abortError(context.signal);
  }
  if (error instanceof ModelError) {
    return error;
  }
  if (context.timeoutSignal?.aborted) {
    return new ModelError(`${context.provider}: request timed out`, { isRetryable: true });
  }
  const status = (error as { status_code?: unknown } | null)?.status_code;
  if (typeof status === "number") {
    return httpModelError({
      provider: context.provider,
      status,
      detail: error instanceof Error ? error.message : undefined,
      retryAfterMs: parseRetryAfter(context.headers, context.now),
      secrets: context.secrets,
    });
  }
  const network = describeNetworkError(error);
  if (network !== undefined) {
    return new ModelError(`${context.provider}: network error (${network})`, { isRetryable: true });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ModelError(`${context.provider}: ${redactSecrets(message, context.secrets)}`);
}
