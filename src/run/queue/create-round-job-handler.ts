import type { LensReport } from "../../agent/index.js";
import { gaveUpReason } from "../round-attempts.js";
import type { RunStore, StoredRound } from "../store/run-store.js";
import { JobStopError } from "./job-stop-error.js";
import type { JobHandler } from "./work-queue.js";

export interface RoundJobHandlerOptions {
  store: RunStore;
  /**
   * Runs the round to its end (or until stopped): the GitHub side, e.g.
   * `runPullRequestRound` with the PR and plan loaded as on resume. Reports
   * in `finished` are lenses already paid for: not to be called again.
   */
  runRound(round: StoredRound, finished: LensReport[], resumed: boolean): Promise<void>;
  /**
   * The job's signal aborted: stop the round running here. `cancelled` ends
   * it as cancelled; `shutdown` and `lost` leave it running in the store for
   * whichever worker takes the job next (after `lost`, one already has).
   */
  stopRound(roundId: string, stop: JobStopError): void;
  /**
   * Ends a round the queue gave up on (its job failed on every attempt), with the
   * failure to record: failed in the store and its check completed, so nothing stays
   * "in progress". The GitHub side, e.g. `abandonRound`.
   */
  abandonRound(round: StoredRound, failure: string): Promise<void>;
}

/**
 * The worker's side of a round job: looks the round up in the store, skips
 * it when it already ended (a duplicate or late job), runs it with the
 * lenses already finished, bridges the job's stop signal to the round, and
 * ends the round as failed when the queue gives up on it.
 */
export function createRoundJobHandler(options: RoundJobHandlerOptions): JobHandler {
  return async ({ job, attempt, lastAttempt, signal }) => {
    const round = await options.store.findRound(job.roundId);
    if (round === null || (round.state !== "queued" && round.state !== "running")) return;
    const cancelled = JobStopError.of(signal);
    if (cancelled?.kind === "cancelled") {
      await options.store.finishRound(round.id, { state: "cancelled", failure: cancelled.message });
      return;
    }
    const finished = await options.store.lensReports(round.id);
    const onAbort = () => {
      const stop = JobStopError.of(signal);
      if (stop !== null) options.stopRound(round.id, stop);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    try {
      await options.runRound(round, finished, attempt > 1 || round.attempts > 0);
    } catch (error) {
      if (!lastAttempt) throw error;
      await options.abandonRound(round, gaveUpReason(attempt));
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
  };
}
