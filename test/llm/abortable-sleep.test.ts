import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { abortableSleep } from "../../src/llm/abortable-sleep.js";
import { ModelAbortedError, ModelTimeoutError } from "../../src/llm/errors.js";

/** Where a sleep stands after the pending promise callbacks have run. */
async function state(sleeping: Promise<void>): Promise<"pending" | "resolved" | "rejected"> {
  let seen: "pending" | "resolved" | "rejected" = "pending";
  sleeping.then(
    () => {
      seen = "resolved";
    },
    () => {
      seen = "rejected";
    },
  );
  for (let index = 0; index < 10; index++) await Promise.resolve();
  return seen;
}

describe("abortableSleep", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("does not resolve before the delay, and resolves at it", async () => {
    const sleeping = abortableSleep(1_000);
    expect(await state(sleeping)).toBe("pending");
    await vi.advanceTimersByTimeAsync(999);
    expect(await state(sleeping)).toBe("pending");
    await vi.advanceTimersByTimeAsync(1);
    expect(await state(sleeping)).toBe("resolved");
    expect(vi.getTimerCount()).toBe(0);
  });

  it("waits the delay even with a signal that never fires, and lets go of the signal after", async () => {
    const controller = new AbortController();
    const sleeping = abortableSleep(1_000, controller.signal);
    await vi.advanceTimersByTimeAsync(999);
    expect(await state(sleeping)).toBe("pending");
    await vi.advanceTimersByTimeAsync(1);
    expect(await state(sleeping)).toBe("resolved");
    // An abort after the sleep ended changes nothing.
    controller.abort();
    expect(await state(sleeping)).toBe("resolved");
  });

  it("rejects as soon as the signal fires during the wait, and clears its timer", async () => {
    const controller = new AbortController();
    const sleeping = abortableSleep(60_000, controller.signal);
    await vi.advanceTimersByTimeAsync(5);
    expect(await state(sleeping)).toBe("pending");
    controller.abort();
    expect(await state(sleeping)).toBe("rejected");
    await expect(sleeping).rejects.toBeInstanceOf(ModelAbortedError);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("rejects before waiting when already aborted, as a timeout when that was the reason", async () => {
    await expect(abortableSleep(60_000, AbortSignal.abort())).rejects.toBeInstanceOf(
      ModelAbortedError,
    );
    const timedOut = AbortSignal.abort(
      new DOMException("The operation timed out.", "TimeoutError"),
    );
    await expect(abortableSleep(60_000, timedOut)).rejects.toBeInstanceOf(ModelTimeoutError);
    expect(vi.getTimerCount()).toBe(0);
  });
});
