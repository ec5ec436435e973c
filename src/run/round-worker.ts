import type { LensReport } from "../agent/index.js";
import type { Clock } from "../time/index.js";
import type { JobHandler, RoundJob, WorkQueue } from "./queue/work-queue.js";
import { RoundLease } from "./round-lease.js";
import { gaveUpReason, MAX_ROUND_ATTEMPTS, retryDelayMs } from "./round-machine.js";
import type { RoundRegistry } from "./round-registry.js";
import type { RunStore, StoredRound } from "./store/run-store.js";

/** A round this worker claimed: the round as the claim left it, its lease, what it already paid for. */
export interface ClaimedRound {
  round: StoredRound;
  lease: RoundLease;
  /** Lenses that ended in earlier attempts: not called again. */
  finished: LensReport[];
  /** Claimed before (a restart, a shutdown, a crash): the board says "resumed". */
  resumed: boolean;
}

export interface RoundWorkerOptions {
  store: RunStore;
  queue: Pick<WorkQueue, "enqueue">;
  registry: RoundRegistry;
  /** This process's name on the leases it holds. */
  owner: string;
  /** How long a lease holds unrenewed: a crashed worker's round waits this long for another. */
  leaseMs: number;
  clock: Pick<Clock, "now" | "setTimeout" | "clearTimeout">;
  /**
   * Runs the round to its end, ending it through `lease.finish` (the GitHub side). It throws only
   * when the round could not start (GitHub unreachable): the round is retried after a backoff,
   * spending an attempt. Stopped by the lease's signal (shutdown, superseded, lost), it returns.
   */
  run(claimed: ClaimedRound): Promise<void>;
  /** Ends a round that spent its attempts: its check and board say why, then `lease.finish`. */
  giveUp(claimed: ClaimedRound, failure: string): Promise<void>;
  onError?: (error: unknown, context: string) => void;
}

/**
 * The worker's side of a wake-up, GitHub-free: claim the round in the store (or find that there
 * is nothing to do: ended, held by a live worker, not yet due — then woken again when it is), run
 * it under its lease, and settle what the runner left: a shutdown hands the round back (no attempt
 * spent) and wakes it for another worker, a failed start is retried after a backoff, a round out of
 * attempts is given up with its check completed.
 */
export function createRoundWorker(options: RoundWorkerOptions): JobHandler {
  const { store, queue } = options;
  return async ({ job, signal }) => {
    const claim = await store.claimRound(job.roundId, {
      owner: options.owner,
      leaseMs: options.leaseMs,
    });
    if (claim.kind === "not-due") {
      await queue.enqueue(job, { delayMs: claim.dueInMs });
      return;
    }
    if (claim.kind !== "claimed") return;
    const lease = new RoundLease({
      store,
      lease: claim.lease,
      leaseMs: options.leaseMs,
      clock: options.clock,
      onError: (error) => options.onError?.(error, `lease of round ${job.roundId}`),
    });
    const onShutdown = () => lease.stop({ kind: "shutdown" });
    let settle: () => void = () => undefined;
    options.registry.add(lease, new Promise<void>((resolve) => (settle = resolve)));
    if (signal.aborted) onShutdown();
    signal.addEventListener("abort", onShutdown, { once: true });
    try {
      const claimed: ClaimedRound = {
        round: claim.round,
        lease,
        finished: await store.lensReports(claim.round.id),
        // A claim `hold` handed back ran nothing: only the claims that ran count.
        resumed: claim.round.leaseEpoch - claim.round.holds > 1,
      };
      if (claim.round.attempts >= MAX_ROUND_ATTEMPTS) {
        await options.giveUp(claimed, gaveUpReason(claim.round.attempts));
      } else {
        await runOrRetry(claimed, job, options);
      }
    } finally {
      signal.removeEventListener("abort", onShutdown);
      await settleLease(lease, job, options).catch((error: unknown) =>
        options.onError?.(error, `settling round ${job.roundId}`),
      );
      settle();
    }
  };
}

async function runOrRetry(
  claimed: ClaimedRound,
  job: RoundJob,
  options: RoundWorkerOptions,
): Promise<void> {
  try {
    await options.run(claimed);
  } catch (error) {
    const stop = claimed.lease.reason()?.kind;
    if (stop === "shutdown" || stop === "lost") return;
    options.onError?.(error, `round ${job.roundId} could not start`);
    const spent = claimed.round.attempts + 1;
    if (spent >= MAX_ROUND_ATTEMPTS) {
      await options.giveUp(claimed, gaveUpReason(spent));
      return;
    }
    const delayMs = retryDelayMs(spent);
    if (await claimed.lease.retry(delayMs)) await options.queue.enqueue(job, { delayMs });
  }
}

/**
 * After the runner: a round stopped by this process's shutdown goes back to the store and is woken
 * for another worker at once; one the runner left neither ended nor handed over (a bug) is handed
 * back too rather than left to its lease; either way nothing of it runs any more.
 */
async function settleLease(
  lease: RoundLease,
  job: RoundJob,
  options: RoundWorkerOptions,
): Promise<void> {
  const reason = lease.reason();
  if (reason === null || reason.kind === "shutdown") {
    if (reason === null)
      options.onError?.(
        new Error("the round runner returned without ending the round"),
        `round ${job.roundId}`,
      );
    if (await lease.release()) await options.queue.enqueue(job, { resume: true });
    return;
  }
  lease.end();
}
