import type { RoundLeaseRef } from "../../../../src/run/round-machine.js";
import type { RunStore } from "../../../../src/run/store/run-store.js";

/** The lease a test worker takes: long enough that no test outlives it unless it means to. */
export const TEST_LEASE_MS = 60_000;

/** Claims a queued, due round for a test worker; throws when the store refuses. */
export async function claimRound(
  store: RunStore,
  roundId: string,
  owner = "test-worker",
  leaseMs = TEST_LEASE_MS,
): Promise<RoundLeaseRef> {
  const claim = await store.claimRound(roundId, { owner, leaseMs });
  if (claim.kind !== "claimed") throw new Error(`round ${roundId} not claimed: ${claim.kind}`);
  return claim.lease;
}

/**
 * Ends a round as its holder would: claims it first if it is still queued, then finishes it
 * under the round's current lease. For tests whose subject is what happens after the end.
 */
export async function endRound(
  store: RunStore,
  roundId: string,
  ending: Parameters<RunStore["finishRound"]>[1],
): Promise<boolean> {
  const round = await store.findRound(roundId);
  if (round === null) return false;
  const lease =
    round.state === "queued"
      ? await claimRound(store, roundId)
      : { roundId, epoch: round.leaseEpoch };
  return (await store.finishRound(lease, ending)).ok;
}
