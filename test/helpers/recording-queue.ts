import type {
  EnqueueOptions,
  JobHandler,
  QueueDepth,
  RoundJob,
  WorkQueue,
} from "../../src/run/queue/work-queue.js";

/**
 * A WorkQueue that only records what it was asked: jobs enqueued (once each), every enqueue's
 * delay (`delays`, in call order, repeats included) and the hints sent to rounds' holders.
 */
export class RecordingQueue implements WorkQueue {
  readonly enqueued: RoundJob[] = [];
  readonly delays: { roundId: string; delayMs: number }[] = [];
  readonly hinted: string[] = [];

  async enqueue(job: RoundJob, options: EnqueueOptions = {}): Promise<boolean> {
    this.delays.push({ roundId: job.roundId, delayMs: options.delayMs ?? 0 });
    if (this.enqueued.some((known) => known.roundId === job.roundId)) return false;
    this.enqueued.push(job);
    return true;
  }

  async work(_handler: JobHandler): Promise<void> {
    throw new Error("the recording queue runs nothing");
  }

  async hint(roundId: string): Promise<void> {
    this.hinted.push(roundId);
  }

  async depth(): Promise<QueueDepth> {
    return { queued: this.enqueued.length, active: 0 };
  }

  async stop(): Promise<void> {}
}
