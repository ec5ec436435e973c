/** The work of one review round, taken by whichever worker is free. */
export interface RoundJob {
  roundId: string;
  /** The GitHub App installation the round belongs to: the unit of fairness. */
  installationId: number;
}

/** A job a worker holds, with the signal that tells it to stop. */
export interface TakenJob {
  job: RoundJob;
  /** 1 on the first take; above 1 when a worker died, stopped or failed holding it. */
  attempt: number;
  /**
   * Failing now gives the job up for good: the handler should record the
   * round as failed rather than throw, so it is not left running forever.
   */
  lastAttempt: boolean;
  /**
   * Aborted, with a JobStopError as reason, when the round is cancelled from
   * any process, when this worker lost the job (its lease ran out and another
   * worker may hold it now), or when this worker shuts down.
   */
  signal: AbortSignal;
}

/**
 * Runs a round job. Resolving completes the job, unless the worker was
 * shutting down or lost the job meanwhile (then it is left for another
 * worker); rejecting fails it, and it is retried later.
 */
export type JobHandler = (taken: TakenJob) => Promise<void>;

export interface QueueDepth {
  /** Waiting to be taken (including retries). */
  queued: number;
  /** Held by a worker now. */
  active: number;
}

export interface EnqueueOptions {
  /**
   * Not taken before this many milliseconds from now (a push's quiet period). Enqueueing a
   * job already waiting with a smaller delay brings its start forward, never back: a
   * `@gadfly review` on a round still waiting for pushes to settle starts it at once.
   */
  delayMs?: number;
}

export interface WorkOptions {
  /** Round jobs this process runs at once. */
  concurrency: number;
}

/**
 * Round jobs shared by every receiver and worker. Fairness: jobs are taken
 * in order of how many jobs their installation already had waiting or
 * running when they were enqueued (then oldest first), so an installation
 * that enqueues 20 rounds gets one turn in each pass, like every other
 * installation, instead of blocking them until its 20 are done.
 */
export interface WorkQueue {
  /**
   * Queues the round; false when its job is already queued or running (enqueueing is
   * idempotent; a shorter `delayMs` still brings a waiting job's start forward).
   */
  enqueue(job: RoundJob, options?: EnqueueOptions): Promise<boolean>;
  /** Starts taking jobs, at most `concurrency` at once in this process; call once. */
  work(handler: JobHandler, options: WorkOptions): Promise<void>;
  /**
   * Stops the round's job on whichever worker holds it now or takes it later
   * (its signal aborts with a "cancelled" JobStopError and `reason`); a job still
   * waiting out its delay may be taken at once, only to end.
   */
  cancel(roundId: string, reason: string): Promise<void>;
  depth(): Promise<QueueDepth>;
  /**
   * Stops taking jobs, aborts the handlers running here ("shutdown") and waits
   * up to `graceMs` for them; their jobs go back to the queue for another worker.
   */
  stop(graceMs: number): Promise<void>;
}
