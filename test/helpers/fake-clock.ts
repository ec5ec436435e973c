import type { Clock } from "../../src/time/clock.js";

interface Timer {
  id: number;
  at: number;
  callback: () => void;
}

/** A clock that only moves when a test advances it: no test sleeps on the wall clock. */
export class FakeClock implements Clock {
  private time: number;
  private timers: Timer[] = [];
  private nextId = 1;

  constructor(start = 1_750_000_000_000) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, milliseconds: number): unknown {
    const timer = { id: this.nextId++, at: this.time + Math.max(0, milliseconds), callback };
    this.timers.push(timer);
    return timer.id;
  }

  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((timer) => timer.id !== handle);
  }

  /** Moves time forward; due timers fire synchronously, in order. */
  advance(milliseconds: number): void {
    this.time += milliseconds;
    for (;;) {
      const due = this.nextDue(this.time);
      if (due === undefined) return;
      this.timers = this.timers.filter((timer) => timer !== due);
      due.callback();
    }
  }

  /** Moves time forward timer by timer, letting the promises each timer starts settle in between. */
  async advanceAndSettle(milliseconds: number): Promise<void> {
    const target = this.time + milliseconds;
    for (;;) {
      const due = this.nextDue(target);
      if (due === undefined) break;
      this.timers = this.timers.filter((timer) => timer !== due);
      this.time = due.at;
      due.callback();
      await settle();
    }
    this.time = target;
    await settle();
  }

  /** Timers still pending: a finished piece of work must leave none behind. */
  pending(): number {
    return this.timers.length;
  }

  private nextDue(limit: number): Timer | undefined {
    return this.timers.filter((timer) => timer.at <= limit).sort((a, b) => a.at - b.at)[0];
  }
}

/** Lets pending promise callbacks run. */
export async function settle(): Promise<void> {
  for (let index = 0; index < 10; index++) await Promise.resolve();
  await new Promise<void>((resolve) => setImmediate(resolve));
}
