import type { Clock } from "../time/index.js";

export interface CoalescedWriterOptions<State, Turn = undefined> {
  /**
   * Waits for the writer's turn (e.g. a token of GitHub's write budget) before the latest
   * state is taken, so the states offered while it waits go out as one write. `final` is the
   * flush's write; `signal` aborts when a flush comes while a turn is awaited (the flush then
   * asks again, as final). A turn that fails counts as a failed write.
   */
  turn?: (options: { final: boolean; signal: AbortSignal }) => Promise<Turn>;
  /** Writes one state (e.g. edits the status board), with what its turn gave. */
  write: (state: State, turn: Turn | undefined) => Promise<void>;
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
export class CoalescedWriter<State, Turn = undefined> {
  private readonly options: CoalescedWriterOptions<State, Turn>;
  private pending: { state: State } | null = null;
  private lastWriteAt = Number.NEGATIVE_INFINITY;
  private firstWriteAt: number | null = null;
  private timer: unknown = null;
  private inFlight: Promise<void> | null = null;
  private awaitingTurn: AbortController | null = null;
  private closed = false;

  constructor(options: CoalescedWriterOptions<State, Turn>) {
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
    this.awaitingTurn?.abort();
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
    if (this.pending === null) return;
    const write = this.takeTurnAndWrite();
    this.inFlight = write;
    await write;
    this.inFlight = null;
    if (!this.closed && this.pending !== null) this.schedule();
  }

  private async takeTurnAndWrite(): Promise<void> {
    let turn: Turn | undefined;
    if (this.options.turn !== undefined) {
      const waiting = new AbortController();
      this.awaitingTurn = waiting;
      try {
        turn = await this.options.turn({ final: this.closed, signal: waiting.signal });
      } catch (error) {
        // Cut short by a flush, which asks again: not a failure. Otherwise asked again an
        // interval later, like a failed write.
        if (!waiting.signal.aborted) this.options.onError(error);
        this.lastWriteAt = this.options.clock.now();
        return;
      } finally {
        this.awaitingTurn = null;
      }
    }
    // The latest state now: those offered while the turn was awaited are coalesced into it.
    const pending = this.pending;
    if (pending === null) return;
    this.pending = null;
    this.lastWriteAt = this.options.clock.now();
    this.firstWriteAt ??= this.lastWriteAt;
    await this.options.write(pending.state, turn).catch((error: unknown) => {
      // Keep the newest state: an older failed one is only restored if nothing newer came.
      if (this.pending === null) this.pending = pending;
      this.options.onError(error);
    });
  }

  private cancelTimer(): void {
    if (this.timer !== null) {
      this.options.clock.clearTimeout(this.timer);
      this.timer = null;
    }
  }
}
