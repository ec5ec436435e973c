import type { Clock } from "../src/time/index.js";

interface Timer {
  at: number;
  callback: () => void;
  handle: ReturnType<typeof setTimeout>;
}

/**
 * A clock that runs with the wall clock and can also jump ahead: `jump(ms)` moves its time
 * forward at once and fires every timer that fell due, in order. Waits nobody jumps over (a
 * board's interval, a model call's timeout) pass in real time as usual, so a round runs as in
 * production; a quiet period of 30 s is skipped in a moment instead of waited out.
 */
export class JumpClock implements Clock {
  private offset = 0;
  private readonly timers = new Set<Timer>();

  now(): number {
    return Date.now() + this.offset;
  }

  setTimeout(callback: () => void, milliseconds: number): unknown {
    const timer: Timer = {
      at: this.now() + Math.max(0, milliseconds),
      callback,
      handle: setTimeout(() => this.fire(timer), Math.max(0, milliseconds)),
    };
    this.timers.add(timer);
    return timer;
  }

  clearTimeout(handle: unknown): void {
    const timer = handle as Timer;
    if (!this.timers.delete(timer)) return;
    clearTimeout(timer.handle);
  }

  /** Moves time `milliseconds` ahead; the timers now due fire, earliest first. */
  jump(milliseconds: number): void {
    this.offset += milliseconds;
    const now = this.now();
    const due = [...this.timers]
      .filter((timer) => timer.at <= now)
      .sort((left, right) => left.at - right.at);
    // The others are now nearer in real time too.
    for (const timer of this.timers) {
      if (timer.at <= now) continue;
      clearTimeout(timer.handle);
      timer.handle = setTimeout(() => this.fire(timer), timer.at - now);
    }
    for (const timer of due) this.fire(timer);
  }

  private fire(timer: Timer): void {
    if (!this.timers.delete(timer)) return;
    clearTimeout(timer.handle);
    timer.callback();
  }
}
