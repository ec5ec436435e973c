import { type Clock, systemClock, waitAtMost } from "../../time/index.js";
import { wakePriority } from "./fair-priority.js";
import type { EnqueueOptions, JobHandler, QueueDepth, RoundJob, WorkQueue } from "./work-queue.js";

export interface InMemoryWorkQueueOptions {
  clock?: Pick<Clock, "now" | "setTimeout" | "clearTimeout">;
  /** A handler rejected: logged; the wake-up is not retried (the sweeper looks again). */
  onError?: (error: unknown, job: RoundJob) => void;
}

interface Waiting {
  job: RoundJob;
  priority: number;
  sequence: number;
  /** Not taken before this time (clock milliseconds). */
  readyAt: number;
}

/**
 * The WorkQueue of the single-process (SQLite) mode: the same contract and fairness rule as the
 * PostgreSQL queue, kept in memory. What it loses on a crash costs nothing: every round's state
 * is in the run store, whose due rounds are woken again at start.
 */
export class InMemoryWorkQueue implements WorkQueue {
  private readonly clock: Pick<Clock, "now" | "setTimeout" | "clearTimeout">;
  private readonly onError: InMemoryWorkQueueOptions["onError"];
  private readonly waiting: Waiting[] = [];
  private readonly running = new Map<Promise<void>, RoundJob>();
  private readonly stopping = new AbortController();
  private handler: JobHandler | null = null;
  private onHint: ((roundId: string) => void) | undefined;
  private concurrency = 0;
  private sequence = 0;
  /** Wakes the pump when the earliest delayed wake-up becomes ready. */
  private timer: { handle: unknown; at: number } | null = null;

  constructor(options: InMemoryWorkQueueOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.onError = options.onError;
  }

  async enqueue(job: RoundJob, options: EnqueueOptions = {}): Promise<boolean> {
    if (this.stopping.signal.aborted) return false;
    const delayMs = Math.max(0, options.delayMs ?? 0);
    const readyAt = this.clock.now() + delayMs;
    const waiting = this.waiting.find((entry) => entry.job.roundId === job.roundId);
    if (waiting !== undefined) {
      // One wake-up per round, at the earliest time and the highest priority asked for: a
      // take-over that meets the round's fresh wake-up still waiting keeps its place ahead.
      waiting.readyAt = Math.min(waiting.readyAt, readyAt);
      if (options.resume === true) waiting.priority = wakePriority(0, true);
      this.pump();
      return false;
    }
    const backlog =
      this.waiting.filter((entry) => entry.job.installationId === job.installationId).length +
      [...this.running.values()].filter((held) => held.installationId === job.installationId)
        .length;
    const priority = wakePriority(backlog, options.resume === true);
    this.waiting.push({ job, priority, sequence: this.sequence++, readyAt });
    this.pump();
    return true;
  }

  async work(
    handler: JobHandler,
    concurrency: number,
    onHint?: (roundId: string) => void,
  ): Promise<void> {
    if (this.handler !== null) throw new Error("work() was already called on this queue");
    this.handler = handler;
    this.onHint = onHint;
    this.concurrency = Math.max(1, concurrency);
    this.pump();
  }

  async hint(roundId: string): Promise<void> {
    this.onHint?.(roundId);
  }

  async depth(): Promise<QueueDepth> {
    return { queued: this.waiting.length, active: this.running.size };
  }

  async stop(graceMs: number): Promise<void> {
    this.stopping.abort();
    if (this.timer !== null) this.clock.clearTimeout(this.timer.handle);
    this.timer = null;
    this.waiting.length = 0;
    await waitAtMost(Promise.allSettled([...this.running.keys()]), graceMs, this.clock);
  }

  private pump(): void {
    const handler = this.handler;
    if (handler === null) return;
    while (!this.stopping.signal.aborted && this.running.size < this.concurrency) {
      const now = this.clock.now();
      const ready = this.waiting
        .filter((entry) => entry.readyAt <= now)
        .sort((left, right) => right.priority - left.priority || left.sequence - right.sequence);
      const next = ready[0];
      if (next === undefined) break;
      this.waiting.splice(this.waiting.indexOf(next), 1);
      this.start(next.job, handler);
    }
    this.scheduleWakeUp();
  }

  /** One timer, at the earliest delayed wake-up (moved earlier when one is brought forward). */
  private scheduleWakeUp(): void {
    const now = this.clock.now();
    const next = Math.min(
      ...this.waiting.filter((entry) => entry.readyAt > now).map((entry) => entry.readyAt),
    );
    if (this.timer !== null && (this.timer.at === next || this.stopping.signal.aborted)) return;
    if (this.timer !== null) this.clock.clearTimeout(this.timer.handle);
    this.timer = null;
    if (!Number.isFinite(next) || this.stopping.signal.aborted) return;
    const handle = this.clock.setTimeout(() => {
      this.timer = null;
      this.pump();
    }, next - now);
    this.timer = { handle, at: next };
  }

  private start(job: RoundJob, handler: JobHandler): void {
    const done: Promise<void> = Promise.resolve()
      .then(() => handler({ job, signal: this.stopping.signal }))
      .catch((error: unknown) => this.onError?.(error, job))
      .finally(() => {
        this.running.delete(done);
        this.pump();
      });
    this.running.set(done, job);
  }
}
