import { abortError } from "./abort-error.js";
import { abortableSleep } from "./abortable-sleep.js";
import { isModelError, ModelAbortedError, ModelError } from "./errors.js";

export interface RetryOptions {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** Backoff before the second attempt; doubled for each further one. */
  initialDelayMs: number;
  /** Ceiling of the computed backoff. */
  maxDelayMs: number;
  /** A server asking for a longer wait than this fails the call instead of stalling the reviewer. */
  maxRetryAfterMs: number;
  /** In [0, 1); injected so tests can pin the jitter. */
  random: () => number;
  /** Must reject when the signal fires; injected so tests never wait on the wall clock. */
  sleep: (milliseconds: number, signal?: AbortSignal) => Promise<void>;
}

export const defaultRetryOptions: RetryOptions = {
  maxAttempts: 3,
  initialDelayMs: 1_000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 60_000,
  random: Math.random,
  sleep: abortableSleep,
};

/**
 * Runs `operation` until it succeeds, fails for good, or the attempts run out. Only
 * ModelErrors flagged `isRetryable` are retried (adapters decide that from the status or
 * the network failure); aborts and anything else are rethrown at once. The wait is the
 * server's `Retry-After` when it gave one, else exponential backoff with jitter: half the
 * backoff is fixed and half random, so that reviewers throttled together spread out.
 */
export async function withRetry<T>(
  operation: (attempt: number) => Promise<T>,
  options: Partial<RetryOptions> & { signal?: AbortSignal | undefined } = {},
): Promise<T> {
  const settings = { ...defaultRetryOptions, ...options };
  const { signal } = options;
  for (let attempt = 1; ; attempt += 1) {
    if (signal?.aborted) {
      throw abortError(signal);
    }
    try {
      return await operation(attempt);
    } catch (error) {
      if (signal?.aborted) {
        throw abortError(signal);
      }
      if (!isModelError(error) || error instanceof ModelAbortedError || !error.isRetryable) {
        throw error;
      }
      if (attempt >= settings.maxAttempts) {
        throw withSuffix(error, `gave up after ${attempt} attempts`);
      }
      const delay = retryDelay(error, attempt, settings);
      if (delay > settings.maxRetryAfterMs) {
        throw withSuffix(
          error,
          `the server asked to wait ${formatSeconds(delay)} before retrying, more than the ${formatSeconds(settings.maxRetryAfterMs)} allowed`,
        );
      }
      await settings.sleep(delay, signal);
    }
  }
}

function retryDelay(error: ModelError, attempt: number, settings: RetryOptions): number {
  if (error.retryAfterMs !== undefined) {
    return error.retryAfterMs;
  }
  const backoff = Math.min(settings.maxDelayMs, settings.initialDelayMs * 2 ** (attempt - 1));
  return Math.round(backoff / 2 + (settings.random() * backoff) / 2);
}

function withSuffix(error: ModelError, suffix: string): ModelError {
  const options: ConstructorParameters<typeof ModelError>[1] = {
    isRetryable: error.isRetryable,
    cause: error,
  };
  if (error.statusCode !== undefined) {
    options.statusCode = error.statusCode;
  }
  if (error.retryAfterMs !== undefined) {
    options.retryAfterMs = error.retryAfterMs;
  }
  return new ModelError(`${error.message} (${suffix})`, options);
}

function formatSeconds(milliseconds: number): string {
  return `${Math.ceil(milliseconds / 1000)} s`;
}
