import type { WorkQueue } from "../run/queue/index.js";
import type { RunStore, StoredRound } from "../run/store/index.js";

/** A push's quiet period (`review.debounceSeconds`) and the time now, to resume one mid-wait. */
export interface QuietPeriod {
  debounceMs: number;
  now: number;
}

/**
 * On start: every round left queued or running (a crash, a deploy, a
 * receiver that died between recording a round and queueing it) is queued
 * again. Enqueueing is idempotent, so a round whose job is still queued or
 * held by a live worker is left alone; the worker that takes a round reuses
 * the lenses it already paid for. A push's round that was still waiting for
 * pushes to settle waits out the rest of its quiet period, so a burst that
 * straddles a restart is still one round. Returns how many were queued anew.
 */
export async function resumeUnfinishedRounds(
  store: RunStore,
  queue: WorkQueue,
  quiet?: QuietPeriod,
): Promise<number> {
  let queued = 0;
  for (const { round } of await store.unfinishedRounds()) {
    const delayMs = quiet === undefined ? 0 : remainingQuiet(round, quiet);
    if (
      await queue.enqueue({ roundId: round.id, installationId: round.installationId }, { delayMs })
    ) {
      queued += 1;
    }
  }
  return queued;
}

/** A round never taken waits from when its push came; one taken before resumes at once. */
function remainingQuiet(round: StoredRound, quiet: QuietPeriod): number {
  if (round.trigger.kind !== "push" || round.state !== "queued" || round.attempts > 0) return 0;
  return Math.max(0, round.createdAt.getTime() + quiet.debounceMs - quiet.now);
}
