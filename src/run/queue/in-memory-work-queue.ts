import { type Clock, systemClock, waitAtMost } from "../../time/index.js";
import { MAX_ROUND_ATTEMPTS } from "../round-attempts.js";
import { fairPriority } from "./fair-priority.js";
import { JobStopError } from "./job-stop-error.js";
import type {
  EnqueueOptions,
  JobHandler,
  QueueDepth,
  RoundJob,
  WorkOptions,
  WorkQueue,
} from "./work-queue.js";

export interface InMemoryWorkQueueOptions {
  clock?: Pick<Clock, "now" | "setTimeout" | "clearTimeout">;
  /** Takes of one job before a failing handler is given up on; the round's cap by default. */
  maxAttempts?: number;
  /** A handler rejected (the job is retried unless it ran out of attempts). */
  onError?: (error: unknown, job: RoundJob, attempt: number) => void;
}

interface Waiting {
  job: RoundJob;
  priority: number;
  sequence: number;
  attempt: number;
  /** Not taken before this time (clock milliseconds). */
  readyAt: number;
}

interface Held {
  job: RoundJob;
  controller: AbortController;
  done: Promise<void>;
}

/**
 * The WorkQueue of the single-process (SQLite) mode: the same contract and
 * fairness rule as the PostgreSQL queue, kept in memory. What it loses on a
 * crash the run store still has: unfinished rounds are enqueued again at start.
 */
export class InMemoryWorkQueue implements WorkQueue {
  private readonly clock: Pick<Clock, "now" | "setTimeout" | "clearTimeout">;
  private readonly maxAttempts: number;
  private readonly onError: InMemoryWorkQueueOptions["onError"];
  private readonly waiting: Waiting[] = [];
  private readonly held = new Map<string, Held>();
  private readonly cancelled = new Map<string, string>();
  private handler: JobHandler | null = null;
  private concurrency = 0;
  private sequence = 0;
  private stopping = false;
  /** Wakes the pump when the earliest delayed job becomes ready. */
  private timer: { handle: unknown; at: number } | null = null;

  constructor(options: InMemoryWorkQueueOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.maxAttempts = options.maxAttempts ?? MAX_ROUND_ATTEMPTS;
    this.onError = options.onError;
  }

  async enqueue(job: RoundJob, options: EnqueueOptions = {}): Promise<boolean> {
    if (this.stopping) return false;
    const readyAt = this.clock.now() + Math.max(0, options.delayMs ?? 0);
    const waiting = this.waiting.find((entry) => entry.job.roundId === job.roundId);
    if (waiting !== undefined) {
      waiting.readyAt = Math.min(waiting.readyAt, readyAt);
      this.pump();
      return false;
    }
    if (this.held.has(job.roundId)) return false;
    this.push(job, 1, readyAt);
    this.pump();
    return true;
  }

  async work(handler: JobHandler, options: WorkOptions): Promise<void> {
    if (this.handler !== null) throw new Error("work() was already called on this queue");
    this.handler = handler;
    this.concurrency = Math.max(1, options.concurrency);
    this.pump();
  }

  async cancel(roundId: string, reason: string): Promise<void> {
    if (!this.isKnown(roundId)) return;
    this.cancelled.set(roundId, reason);
    this.held.get(roundId)?.controller.abort(new JobStopError("cancelled", reason));
    // A job still waiting out its quiet period has nothing left to wait for: it only ends.
    const waiting = this.waiting.find((entry) => entry.job.roundId === roundId);
    if (waiting !== undefined) {
      waiting.readyAt = Math.min(waiting.readyAt, this.clock.now());
      this.pump();
    }
  }

  async depth(): Promise<QueueDepth> {
    return { queued: this.waiting.length, active: this.held.size };
  }

  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    if (this.timer !== null) this.clock.clearTimeout(this.timer.handle);
    this.timer = null;
    for (const held of this.held.values()) {
      if (!held.controller.signal.aborted) held.controller.abort(new JobStopError("shutdown"));
    }
    const all = Promise.allSettled([...this.held.values()].map((held) => held.done));
    await waitAtMost(all, graceMs, this.clock);
  }

  private isKnown(roundId: string): boolean {
    return this.held.has(roundId) || this.waiting.some((entry) => entry.job.roundId === roundId);
  }

  private push(job: RoundJob, attempt: number, readyAt = this.clock.now()): void {
    const backlog =
      this.waiting.filter((entry) => entry.job.installationId === job.installationId).length +
      [...this.held.values()].filter((held) => held.job.installationId === job.installationId)
        .length;
    this.waiting.push({
      job,
      priority: fairPriority(backlog),
      sequence: this.sequence++,
      attempt,
      readyAt,
    });
  }

  private pump(): void {
    const handler = this.handler;
    if (handler === null) return;
    while (!this.stopping && this.held.size < this.concurrency) {
      const now = this.clock.now();
      const ready = this.waiting
        .filter((entry) => entry.readyAt <= now)
        .sort((left, right) => right.priority - left.priority || left.sequence - right.sequence);
      const next = ready[0];
      if (next === undefined) break;
      this.waiting.splice(this.waiting.indexOf(next), 1);
      this.start(next, handler);
    }
    this.scheduleWakeUp();
  }

  /** One timer, at the earliest delayed job's start (moved earlier when one is brought forward). */
  private scheduleWakeUp(): void {
    const now = this.clock.now();
    const next = Math.min(
      ...this.waiting.filter((entry) => entry.readyAt > now).map((entry) => entry.readyAt),
    );
    if (this.timer !== null && (this.timer.at === next || this.stopping)) return;
    if (this.timer !== null) this.clock.clearTimeout(this.timer.handle);
    this.timer = null;
    if (!Number.isFinite(next) || this.stopping) return;
    const handle = this.clock.setTimeout(() => {
      this.timer = null;
      this.pump();
    }, next - now);
    this.timer = { handle, at: next };
  }

  private start(entry: Waiting, handler: JobHandler): void {
    const { job, attempt } = entry;
    const controller = new AbortController();
    const reason = this.cancelled.get(job.roundId);
    if (reason !== undefined) controller.abort(new JobStopError("cancelled", reason));
    let retry = false;
    const done = Promise.resolve()
      .then(() =>
        handler({
          job,
          attempt,
          lastAttempt: attempt >= this.maxAttempts,
          signal: controller.signal,
        }),
      )
      .catch((error: unknown) => {
        this.onError?.(error, job, attempt);
        retry = !this.stopping && attempt < this.maxAttempts;
      })
      .finally(() => {
        this.held.delete(job.roundId);
        // A retried job keeps its cancellation: it is taken again with its signal aborted.
        if (retry) this.push(job, attempt + 1);
        else this.cancelled.delete(job.roundId);
        this.pump();
      });
    this.held.set(job.roundId, { job, controller, done });
  }
}
