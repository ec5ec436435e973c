import { ModelTimeoutError } from "../llm/index.js";
import type { Clock } from "./clock.js";

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
    controller.abort(new ModelTimeoutError("the time budget is exhausted"));
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
