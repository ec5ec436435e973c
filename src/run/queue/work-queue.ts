/** A wake-up for one review round: "look at round R", delivered to whichever worker is free. */
export interface RoundJob {
  roundId: string;
  /** The GitHub App installation the round belongs to: the unit of fairness. */
  installationId: number;
}

/** A wake-up a worker took, with the signal that tells it this process is stopping. */
export interface TakenJob {
  job: RoundJob;
  /** Aborted when this process shuts down: the worker hands its round back to the store. */
  signal: AbortSignal;
}

/**
 * Handles a wake-up: claims the round in the store and runs it, or finds there is nothing to do
 * (ended, held by a live worker, not yet due). A wake-up is delivered once and never retried by
 * the queue: whatever happens to the round is its state in the store, and the sweeper
 * (`wakeDueRounds`) wakes every round the store says is due, whatever became of its wake-ups.
 */
export type JobHandler = (taken: TakenJob) => Promise<void>;

export interface QueueDepth {
  /** Wake-ups waiting to be taken (including delayed ones). */
  queued: number;
  /** Handlers running now (in this process, or across workers where the queue knows). */
  active: number;
}

export interface EnqueueOptions {
  /**
   * Not taken before this many milliseconds from now. A wake-up already waiting for the round
   * is kept; asked for with no delay, it is brought forward to now.
   */
  delayMs?: number;
  /** The round is taken up again (a take-over, a hand-back): ahead of fresh rounds (`wakePriority`). */
  resume?: boolean;
}

/**
 * The dispatch of round wake-ups, shared by every receiver and worker. It never decides a round's
 * fate: no attempts, no retries, no failure of its own (the run store's state machine,
 * `run/round-machine.ts`, does). Fairness: wake-ups are taken in order of how many their
 * installation already had waiting or running when they were sent (then oldest first), so an
 * installation that sends 20 gets one turn in each pass, like every other installation.
 */
export interface WorkQueue {
  /** Sends a wake-up; false when one for the round was already waiting (idempotent). */
  enqueue(job: RoundJob, options?: EnqueueOptions): Promise<boolean>;
  /**
   * Starts taking wake-ups, at most `concurrency` at once in this process (the rounds it runs at
   * once); call once. `onHint`: a round may have been cancelled by another process, and its
   * holder here should look.
   */
  work(handler: JobHandler, concurrency: number, onHint?: (roundId: string) => void): Promise<void>;
  /**
   * Tells whichever process holds the round to read its state now (the receiver just cancelled
   * it in the store): a hint, lost harmlessly if no one listens (the holder's lease renewal reads
   * the same state within a third of the lease).
   */
  hint(roundId: string): Promise<void>;
  depth(): Promise<QueueDepth>;
  /**
   * Stops taking wake-ups, aborts the handlers running here (their signal) and waits up to
   * `graceMs` for them to hand their rounds back.
   */
  stop(graceMs: number): Promise<void>;
}
