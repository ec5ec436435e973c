import type { Clock } from "./clock.js";

/**
 * The reason a deadline's signal aborts with when its time runs out. Named `TimeoutError`
 * like the reason of `AbortSignal.timeout`, so code that tells a timeout from a
 * cancellation treats both alike; the model layer turns it into its own timeout error.
 */
export class DeadlineExpiredError extends Error {
  override readonly name = "TimeoutError";
  /** Safe to show: it says only that the time ran out. */
  readonly publicMessage: string;

  constructor(message = "the time budget is exhausted") {
    super(message);
    this.publicMessage = message;
  }
}

export interface Deadline {
  /** Aborts when the time is up or the parent signal aborts. */
  readonly signal: AbortSignal;
  /** True once the time ran out (as opposed to a cancellation from the parent). */
  readonly expired: boolean;
  /** Milliseconds left, never negative. */
  remaining(): number;
  dispose(): void;
}

/** A time budget on the injected clock, chained to a parent signal (cancellation). */
export function startDeadline(clock: Clock, milliseconds: number, parent?: AbortSignal): Deadline {
  const controller = new AbortController();
  const endsAt = clock.now() + milliseconds;
  let expired = false;
  const onParentAbort = () => controller.abort(parent?.reason);
  const timer = clock.setTimeout(() => {
    expired = true;
    controller.abort(new DeadlineExpiredError());
  }, milliseconds);
  if (parent?.aborted) controller.abort(parent.reason);
  else parent?.addEventListener("abort", onParentAbort, { once: true });
  return {
    signal: controller.signal,
    get expired() {
      return expired;
    },
    remaining: () => Math.max(0, endsAt - clock.now()),
    dispose() {
      clock.clearTimeout(timer);
      parent?.removeEventListener("abort", onParentAbort);
    },
  };
}
