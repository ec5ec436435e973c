import pLimit from "p-limit";

/**
 * The global cap on (model, lens) reviews in flight across every round of the
 * process, so ten PRs opened at once queue instead of firing hundreds of
 * model calls. A task whose round is cancelled while it waits never starts.
 */
export interface ReviewerLimiter {
  run<T>(task: () => Promise<T>, signal: AbortSignal): Promise<T>;
  readonly active: number;
  readonly pending: number;
}

export function createReviewerLimiter(concurrency: number): ReviewerLimiter {
  const limit = pLimit(concurrency);
  return {
    run: (task, signal) =>
      limit(() => {
        signal.throwIfAborted();
        return task();
      }),
    get active() {
      return limit.activeCount;
    },
    get pending() {
      return limit.pendingCount;
    },
  };
}
