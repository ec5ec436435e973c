import type { Clock } from "../../src/run/clock.js";

/** A manual clock: time moves only when the test calls `advance`. */
export class FakeClock implements Clock {
  private current: number;
  private nextId = 1;
  private readonly timers = new Map<number, { at: number; callback: () => void }>();

  constructor(start = Date.UTC(2026, 7, 6, 0, 27, 21)) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimeout(callback: () => void, milliseconds: number): unknown {
    const id = this.nextId++;
    this.timers.set(id, { at: this.current + Math.max(0, milliseconds), callback });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  get pendingTimers(): number {
    return this.timers.size;
  }

  /** Moves time forward, firing due timers in order and letting their promises settle. */
  async advance(milliseconds: number): Promise<void> {
    const target = this.current + milliseconds;
    for (;;) {
      const due = [...this.timers.entries()]
        .filter(([, timer]) => timer.at <= target)
        .sort((a, b) => a[1].at - b[1].at)[0];
      if (due === undefined) break;
      this.timers.delete(due[0]);
      this.current = due[1].at;
      due[1].callback();
      await settle();
    }
    this.current = target;
    await settle();
  }
}

/** Lets pending promise callbacks run. */
export async function settle(): Promise<void> {
  for (let index = 0; index < 10; index++) await Promise.resolve();
  await new Promise<void>((resolve) => setImmediate(resolve));
}
