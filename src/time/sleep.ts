import { type Clock, systemClock } from "./clock.js";

export interface SleepOptions {
  /** Ends the wait early: the sleep rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
  /** Whose timers to wait on; tests pass a fake one they advance by hand. */
  clock?: Pick<Clock, "setTimeout" | "clearTimeout"> | undefined;
}

/**
 * The one way code here waits: resolves after `milliseconds` on the clock, or rejects with
 * `signal.reason` as soon as the signal aborts (at once if it already has). Either way it
 * lets go of its timer and its abort listener, so a long wait cut short keeps no timer
 * holding the process open and a long-lived signal collects no listeners. It rejects with
 * the reason as given: a caller that has typed errors of its own (llm's ModelError) maps it.
 */
export function sleep(milliseconds: number, options: SleepOptions = {}): Promise<void> {
  const { signal, clock = systemClock } = options;
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clock.clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = clock.setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, milliseconds);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Waits for `work` to settle, but no longer than `milliseconds`: for a shutdown that gives
 * running work a grace period and then goes on without it. Never rejects (a failure of
 * `work` is its owner's to report), and clears its timer as soon as `work` settles.
 */
export async function waitAtMost(
  work: Promise<unknown>,
  milliseconds: number,
  clock?: Pick<Clock, "setTimeout" | "clearTimeout">,
): Promise<void> {
  const settled = new AbortController();
  const finished = work.then(
    () => settled.abort(),
    () => settled.abort(),
  );
  // The sleep rejects only when `work` settled first, which is the other way this ends.
  const gracePeriod = sleep(milliseconds, { signal: settled.signal, clock }).catch(() => {});
  await Promise.race([finished, gracePeriod]);
}
