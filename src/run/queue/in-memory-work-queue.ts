import { type Clock, systemClock, waitAtMost } from "../../time/index.js";
import { MAX_ROUND_ATTEMPTS } from "../round-attempts.js";
import { fairPriority } from "./fair-priority.js";
import { JobStopError } from "./job-stop-error.js";
import type { JobHandler, QueueDepth, RoundJob, WorkOptions, WorkQueue } from "./work-queue.js";

export interface InMemoryWorkQueueOptions {
  clock?: Pick<Clock, "setTimeout" | "clearTimeout">;
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
  private readonly clock: Pick<Clock, "setTimeout" | "clearTimeout">;
  private readonly maxAttempts: number;
  private readonly onError: InMemoryWorkQueueOptions["onError"];
  private readonly waiting: Waiting[] = [];
  private readonly held = new Map<string, Held>();
  private readonly cancelled = new Map<string, string>();
  private handler: JobHandler | null = null;
  private concurrency = 0;
  private sequence = 0;
  private stopping = false;

  constructor(options: InMemoryWorkQueueOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.maxAttempts = options.maxAttempts ?? MAX_ROUND_ATTEMPTS;
    this.onError = options.onError;
  }

  async enqueue(job: RoundJob): Promise<boolean> {
    if (this.stopping || this.isKnown(job.roundId)) return false;
    this.push(job, 1);
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
  }

  async depth(): Promise<QueueDepth> {
    return { queued: this.waiting.length, active: this.held.size };
  }

  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    for (const held of this.held.values()) {
      if (!held.controller.signal.aborted) held.controller.abort(new JobStopError("shutdown"));
    }
    const all = Promise.allSettled([...this.held.values()].map((held) => held.done));
    await waitAtMost(all, graceMs, this.clock);
  }

  private isKnown(roundId: string): boolean {
    return this.held.has(roundId) || this.waiting.some((entry) => entry.job.roundId === roundId);
  }

  private push(job: RoundJob, attempt: number): void {
    const backlog =
      this.waiting.filter((entry) => entry.job.installationId === job.installationId).length +
      [...this.held.values()].filter((held) => held.job.installationId === job.installationId)
        .length;
    this.waiting.push({ job, priority: fairPriority(backlog), sequence: this.sequence++, attempt });
  }

  private pump(): void {
    const handler = this.handler;
    if (handler === null) return;
    while (!this.stopping && this.held.size < this.concurrency && this.waiting.length > 0) {
      this.waiting.sort(
        (left, right) => right.priority - left.priority || left.sequence - right.sequence,
      );
      const next = this.waiting.shift();
      if (next !== undefined) this.start(next, handler);
    }
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
