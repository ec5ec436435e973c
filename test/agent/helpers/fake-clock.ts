import type { Clock } from "../../../src/agent/clock.js";

interface Timer {
  id: number;
  at: number;
  callback: () => void;
}

/** A clock that only moves when a test advances it; due timers fire synchronously. */
export class FakeClock implements Clock {
  private time = 1_750_000_000_000;
  private timers: Timer[] = [];
  private nextId = 1;

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, milliseconds: number): unknown {
    const timer = { id: this.nextId++, at: this.time + milliseconds, callback };
    this.timers.push(timer);
    return timer.id;
  }

  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((timer) => timer.id !== handle);
  }

  advance(milliseconds: number): void {
    this.time += milliseconds;
    for (;;) {
      const due = this.timers
        .filter((timer) => timer.at <= this.time)
        .sort((a, b) => a.at - b.at)[0];
      if (due === undefined) return;
      this.timers = this.timers.filter((timer) => timer !== due);
      due.callback();
    }
  }

  /** Timers still pending: a finished review must leave none behind. */
  pending(): number {
    return this.timers.length;
  }
}
