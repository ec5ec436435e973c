import type {
  EnqueueOptions,
  JobHandler,
  QueueDepth,
  RoundJob,
  WorkQueue,
} from "../../src/run/queue/work-queue.js";

/**
 * A WorkQueue that only records what it was asked: jobs enqueued (once each), every enqueue's
 * delay (`delays`, in call order, repeats included) and cancellations.
 */
export class RecordingQueue implements WorkQueue {
  readonly enqueued: RoundJob[] = [];
  readonly delays: { roundId: string; delayMs: number }[] = [];
  readonly cancelled: { roundId: string; reason: string }[] = [];

  async enqueue(job: RoundJob, options: EnqueueOptions = {}): Promise<boolean> {
    this.delays.push({ roundId: job.roundId, delayMs: options.delayMs ?? 0 });
    if (this.enqueued.some((known) => known.roundId === job.roundId)) return false;
    this.enqueued.push(job);
    return true;
  }

  async work(_handler: JobHandler): Promise<void> {
    throw new Error("the recording queue runs nothing");
  }

  async cancel(roundId: string, reason: string): Promise<void> {
    this.cancelled.push({ roundId, reason });
  }

  async depth(): Promise<QueueDepth> {
    return { queued: this.enqueued.length, active: 0 };
  }

  async stop(): Promise<void> {}
}
