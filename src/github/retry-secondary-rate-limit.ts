import { type Clock, sleep } from "../time/index.js";

/**
 * How a write waits out GitHub's secondary rate limit: on the round's clock, and no longer than
 * the round lives (its signal ends the wait, with the signal's reason).
 */
export interface RateLimitWait {
  signal?: AbortSignal;
  clock?: Pick<Clock, "setTimeout" | "clearTimeout">;
  /** Replaces the clock's wait entirely (tests record the waits asked for). */
  sleep?: (milliseconds: number) => Promise<void>;
}

/** GitHub asks for at least a minute when it names no wait. */
const UNNAMED_WAIT_MS = 60_000;
/** Tries after the first. */
const RETRIES = 2;
/** A longer wait than this is not waited out: the error is rethrown. */
const MAX_WAIT_MS = 60_000;

/**
 * Runs a GitHub write again when GitHub refused it with its secondary rate
 * limit (403 or 429 with Retry-After, or its message), after the wait it asked
 * for. Such a refusal means the write was not done, so repeating it cannot post
 * twice. Probot's throttling plugin, as Probot configures it, only logs these:
 * without this, one limited comment would fail the whole round.
 */
export async function retrySecondaryRateLimit<T>(
  operation: () => Promise<T>,
  options: RateLimitWait = {},
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await operation();
    } catch (error) {
      const wait = secondaryRateLimitWait(error);
      if (wait === null || attempt >= RETRIES || wait > MAX_WAIT_MS) throw error;
      await (options.sleep?.(wait) ??
        sleep(wait, { signal: options.signal, clock: options.clock }));
    }
  }
}

/** The wait GitHub asked for, or null when the error is not a secondary rate limit. */
function secondaryRateLimitWait(error: unknown): number | null {
  if (typeof error !== "object" || error === null) return null;
  const candidate = error as {
    status?: unknown;
    message?: unknown;
    response?: { headers?: Record<string, unknown> };
  };
  if (candidate.status !== 403 && candidate.status !== 429) return null;
  const retryAfter = candidate.response?.headers?.["retry-after"];
  const seconds = typeof retryAfter === "string" ? retryAfter.trim() : String(retryAfter ?? "");
  if (/^\d+(\.\d+)?$/.test(seconds)) return Math.ceil(Number(seconds) * 1000);
  const message = typeof candidate.message === "string" ? candidate.message : "";
  return /secondary rate limit/i.test(message) ? UNNAMED_WAIT_MS : null;
}
