import { type Clock, systemClock } from "./clock.js";
import { sleep } from "./sleep.js";

/** How an operation that may fail for a moment is tried: how often, and how long between tries. */
export interface RetryPolicy {
  /** Tries in all, the first included. */
  attempts: number;
  /** The wait after try `attempt` failed, before the next. */
  wait: (attempt: number) => Promise<void>;
}

/**
 * `attempts` tries, the first wait `firstMs`, each next one `firstMs` longer (linear: 1 s, 2 s, 3 s)
 * or twice as long (doubling: 100, 200, 400 ms), timed on `clock`.
 */
export function retryPolicy(
  attempts: number,
  firstMs: number,
  growth: "linear" | "doubling",
  clock: Pick<Clock, "setTimeout" | "clearTimeout"> = systemClock,
): RetryPolicy {
  return {
    attempts,
    wait: (attempt) =>
      sleep(growth === "linear" ? firstMs * attempt : firstMs * 2 ** (attempt - 1), { clock }),
  };
}
