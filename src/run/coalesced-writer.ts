import type { Clock } from "../time/index.js";

export interface CoalescedWriterOptions<State> {
  /** Writes one state (e.g. edits the status board). */
  write: (state: State) => Promise<void>;
  /**
   * At most one write per interval; the latest state wins. A function gets the time since the
   * first write, so a long-running stream can slow down (GitHub counts every edit).
   */
  intervalMs: number | ((sinceFirstWriteMs: number) => number);
  clock: Clock;
  /** Called when a write fails; the state stays pending and is retried by the next write or flush. */
  onError: (error: unknown) => void;
}

/**
 * Coalesces a stream of states into at most one write per interval, so a
 * busy round cannot exhaust GitHub's content-creation budget. The final state
 * is always written by `flush()`.
 */
export class CoalescedWriter<State> {
  private readonly options: CoalescedWriterOptions<State>;
  private pending: { state: State } | null = null;
  private lastWriteAt = Number.NEGATIVE_INFINITY;
  private firstWriteAt: number | null = null;
  private timer: unknown = null;
  private inFlight: Promise<void> | null = null;
  private closed = false;

  constructor(options: CoalescedWriterOptions<State>) {
    this.options = options;
  }

  /** Offers a new state; it is written now or at the end of the current interval. */
  update(state: State): void {
    if (this.closed) return;
    this.pending = { state };
    this.schedule();
  }

  /**
   * Writes the latest state now (after any write in flight), retrying a failed
   * final write up to `attempts` times, then stops scheduling. Resolves true
   * when the final state was written.
   */
  async flush(attempts = 3): Promise<boolean> {
    this.closed = true;
    this.cancelTimer();
    while (this.inFlight !== null) await this.inFlight;
    for (let attempt = 0; attempt < attempts && this.pending !== null; attempt++) {
      await this.writeNow();
    }
    return this.pending === null;
  }

  private schedule(): void {
    if (this.timer !== null || this.inFlight !== null) return;
    const now = this.options.clock.now();
    const { intervalMs } = this.options;
    const interval =
      typeof intervalMs === "number" ? intervalMs : intervalMs(now - (this.firstWriteAt ?? now));
    const wait = this.lastWriteAt + interval - now;
    if (wait <= 0) {
      void this.writeNow();
      return;
    }
    this.timer = this.options.clock.setTimeout(() => {
      this.timer = null;
      if (!this.closed) void this.writeNow();
    }, wait);
  }

  private async writeNow(): Promise<void> {
    const pending = this.pending;
    if (pending === null) return;
    this.pending = null;
    this.lastWriteAt = this.options.clock.now();
    this.firstWriteAt ??= this.lastWriteAt;
    const write = this.options.write(pending.state).catch((error: unknown) => {
      // Keep the newest state: an older failed one is only restored if nothing newer came.
      if (this.pending === null) this.pending = pending;
      this.options.onError(error);
    });
    this.inFlight = write;
    await write;
    this.inFlight = null;
    if (!this.closed && this.pending !== null) this.schedule();
  }

  private cancelTimer(): void {
    if (this.timer !== null) {
      this.options.clock.clearTimeout(this.timer);
      this.timer = null;
    }
  }
}
