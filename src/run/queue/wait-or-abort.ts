import type { Clock } from "../../time/index.js";

/** Resolves after `milliseconds` or as soon as `signal` aborts, whichever comes first; never rejects. */
export function waitOrAbort(
  clock: Pick<Clock, "setTimeout" | "clearTimeout">,
  milliseconds: number,
  signal: AbortSignal,
): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const onAbort = () => {
      clock.clearTimeout(timer);
      resolve();
    };
    const timer = clock.setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, milliseconds);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
