import type { WorkQueue } from "../run/queue/index.js";
import type { RunStore } from "../run/store/index.js";

/**
 * On start: every round left queued or running (a crash, a deploy, a
 * receiver that died between recording a round and queueing it) is queued
 * again. Enqueueing is idempotent, so a round whose job is still queued or
 * held by a live worker is left alone; the worker that takes a round reuses
 * the lenses it already paid for. Returns how many were queued anew.
 */
export async function resumeUnfinishedRounds(store: RunStore, queue: WorkQueue): Promise<number> {
  let queued = 0;
  for (const { round } of await store.unfinishedRounds()) {
    if (await queue.enqueue({ roundId: round.id, installationId: round.installationId })) {
      queued += 1;
    }
  }
  return queued;
}
