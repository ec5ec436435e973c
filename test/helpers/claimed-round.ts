import { RoundLease } from "../../src/run/round-lease.js";
import type { ClaimedRound } from "../../src/run/round-worker.js";
import type { RunStore, StoredRound } from "../../src/run/store/run-store.js";
import { type Clock, systemClock } from "../../src/time/clock.js";

/**
 * A round claimed as a worker would claim it (its lease renewed on `clock`), with the lenses the
 * store saved for it: what `runRoundJob` and `runPullRequestRound` are given. End the lease
 * (`lease.end()`) in tests that do not run the round to its end.
 */
export async function claimedRound(
  store: RunStore,
  roundId: string,
  options: { clock?: Clock; leaseMs?: number; owner?: string } = {},
): Promise<ClaimedRound> {
  const leaseMs = options.leaseMs ?? 60_000;
  const claim = await store.claimRound(roundId, { owner: options.owner ?? "test-worker", leaseMs });
  if (claim.kind !== "claimed") throw new Error(`round ${roundId} not claimed: ${claim.kind}`);
  const round: StoredRound = claim.round;
  return {
    round,
    lease: new RoundLease({
      store,
      lease: claim.lease,
      leaseMs,
      clock: options.clock ?? systemClock,
    }),
    finished: await store.lensReports(roundId),
    resumed: round.leaseEpoch > 1,
  };
}
