import { abortError } from "./abort-error.js";

/**
 * Waits `milliseconds`, rejecting early (with the abort's ModelError) when `signal` fires.
 *
 * The one sleep is time/sleep.ts; this stays apart only because time/deadline.ts and
 * time/race-abort.ts still build llm's errors, so llm importing time would close a
 * load-time cycle (llm/index -> with-retry -> time/index -> deadline -> llm/index). Once
 * those two take their errors from their callers, this becomes
 * `sleep(ms, { signal }).catch(() => { throw abortError(signal) })` in with-retry.
 */
export function abortableSleep(milliseconds: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError(signal));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      if (signal) {
        reject(abortError(signal));
      }
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, milliseconds);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
