import { afterEach, describe, expect, it, vi } from "vitest";
import { sleep, waitAtMost } from "../../src/time/sleep.js";
import { FakeClock, settle } from "../helpers/fake-clock.js";

type State = "pending" | "resolved" | "rejected";

/** Where a promise stands once the pending callbacks have run. */
async function state(promise: Promise<unknown>): Promise<State> {
  let seen: State = "pending";
  promise.then(
    () => {
      seen = "resolved";
    },
    () => {
      seen = "rejected";
    },
  );
  await settle();
  return seen;
}

/** A signal that counts the abort listeners it holds, to see a sleep let go of its own. */
function countingSignal(): { controller: AbortController; listeners: () => number } {
  const controller = new AbortController();
  let listeners = 0;
  const { signal } = controller;
  const add = signal.addEventListener.bind(signal);
  const remove = signal.removeEventListener.bind(signal);
  signal.addEventListener = (...args: Parameters<typeof add>) => {
    listeners += 1;
    add(...args);
  };
  signal.removeEventListener = (...args: Parameters<typeof remove>) => {
    listeners -= 1;
    remove(...args);
  };
  return { controller, listeners: () => listeners };
}

describe("sleep", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("does not resolve before the delay, resolves at it, and leaves no timer", async () => {
    const clock = new FakeClock();
    const sleeping = sleep(1_000, { clock });
    expect(await state(sleeping)).toBe("pending");
    clock.advance(999);
    expect(await state(sleeping)).toBe("pending");
    clock.advance(1);
    expect(await state(sleeping)).toBe("resolved");
    expect(clock.pending()).toBe(0);
  });

  it("waits the whole delay with a signal that never fires, then lets go of the signal", async () => {
    const clock = new FakeClock();
    const { controller, listeners } = countingSignal();
    const sleeping = sleep(1_000, { clock, signal: controller.signal });
    expect(listeners()).toBe(1);
    clock.advance(999);
    expect(await state(sleeping)).toBe("pending");
    clock.advance(1);
    expect(await state(sleeping)).toBe("resolved");
    expect(listeners()).toBe(0);
    controller.abort(new Error("too late")); // after the sleep ended: changes nothing
    expect(await state(sleeping)).toBe("resolved");
  });

  it("rejects with the abort's reason as soon as the signal fires, and clears its timer", async () => {
    const clock = new FakeClock();
    const controller = new AbortController();
    const sleeping = sleep(60_000, { clock, signal: controller.signal });
    clock.advance(5);
    expect(await state(sleeping)).toBe("pending");
    const reason = new Error("stopped");
    controller.abort(reason);
    expect(await state(sleeping)).toBe("rejected");
    await expect(sleeping).rejects.toBe(reason);
    expect(clock.pending()).toBe(0); // the once-listener went with the abort itself
  });

  it("rejects at once, starting no timer, when the signal has already aborted", async () => {
    const clock = new FakeClock();
    const reason = new Error("already stopped");
    const sleeping = sleep(60_000, { clock, signal: AbortSignal.abort(reason) });
    expect(await state(sleeping)).toBe("rejected");
    await expect(sleeping).rejects.toBe(reason);
    expect(clock.pending()).toBe(0);
  });

  it("waits on the system clock when given none", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const sleeping = sleep(1_000);
    await vi.advanceTimersByTimeAsync(999);
    expect(await state(sleeping)).toBe("pending");
    await vi.advanceTimersByTimeAsync(1);
    expect(await state(sleeping)).toBe("resolved");
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("waitAtMost", () => {
  it("ends when the work settles, before the limit, and clears its timer", async () => {
    const clock = new FakeClock();
    let finish = () => {};
    const work = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const waiting = waitAtMost(work, 10_000, clock);
    clock.advance(9_999);
    expect(await state(waiting)).toBe("pending");
    finish();
    expect(await state(waiting)).toBe("resolved");
    expect(clock.pending()).toBe(0);
  });

  it("ends at the limit when the work never settles, and not before", async () => {
    const clock = new FakeClock();
    const waiting = waitAtMost(new Promise(() => {}), 10_000, clock);
    clock.advance(9_999);
    expect(await state(waiting)).toBe("pending");
    clock.advance(1);
    expect(await state(waiting)).toBe("resolved");
  });

  it("does not reject when the work fails: its failure is its owner's to report", async () => {
    const clock = new FakeClock();
    const waiting = waitAtMost(Promise.reject(new Error("failed")), 10_000, clock);
    expect(await state(waiting)).toBe("resolved");
    expect(clock.pending()).toBe(0);
  });
});
