import { publicFailureReason } from "../../agent/index.js";
import type { CheckOutput } from "../../render/index.js";
import {
  cancelledCheck,
  failedCheck,
  supersededCheck,
  supersededReason,
} from "../../render/index.js";
import type { RoundLease, StopReason } from "../../run/index.js";
import { cancelRemaining } from "../../run/index.js";
import type { RoundEnding, StoredRound } from "../../run/store/index.js";
import { describeError } from "../describe-error.js";
import type { GitHubClient } from "../github-client.js";
import { type CheckRunWait, completeCheckRun } from "../publish-check-run.js";
import type { RoundRun } from "./round-run.js";

export interface RoundClosing {
  /** What the store records (state, public failure reason, superseding SHA). */
  ending: RoundEnding;
  conclusion: "neutral" | "cancelled";
  /** The check's last words. */
  check: CheckOutput;
}

/**
 * Ends a round that publishes no review: its check (when it has one) is completed, so it never
 * stays "in progress", and the store records why it ended through the lease (fenced: a worker
 * that lost the round records nothing) — even when GitHub refused the check (its error still
 * reaches the caller).
 */
export async function endRound(
  octokit: GitHubClient,
  round: Pick<StoredRound, "repo">,
  lease: RoundLease,
  checkRunId: number | undefined,
  closing: RoundClosing,
  clock?: CheckRunWait["clock"],
): Promise<void> {
  try {
    if (checkRunId !== undefined) {
      // The round's signal may be aborted already (it is ending): only the clock paces the wait.
      const wait = clock === undefined ? {} : { clock };
      await completeCheckRun(
        octokit,
        round.repo,
        checkRunId,
        closing.conclusion,
        closing.check,
        [],
        wait,
      );
    }
  } finally {
    await lease.finish(closing.ending);
  }
}

/**
 * A round that must stop before publishing (more): superseded or cancelled, it ends `cancelled`
 * with its board and check saying why; handed over (shutdown, lost), it writes nothing that says
 * it ended, and whoever takes it next resumes it.
 */
export async function endStopped(run: RoundRun, stop: StopReason): Promise<void> {
  const { deps, fields } = run;
  if (stop.kind === "shutdown") {
    deps.log.info(fields, "round interrupted by shutdown; it resumes on the next start");
    await run.board?.flush();
    return;
  }
  if (stop.kind === "lost" || stop.kind === "ended") {
    deps.log.warn(fields, "round taken over by another worker; stopped here");
    return;
  }
  const closing = cancelledClosing(stop);
  run.board?.update({
    ...cancelRemaining(run.status, closing.reason, deps.clock.now()),
    ...(stop.kind === "superseded" ? { supersededBy: stop.by } : {}),
    finished: true,
  });
  await run.board?.flush();
  await endRound(run.octokit, run.round, run.lease, run.checkRunId, closing, deps.clock);
  deps.log.info(fields, stop.kind === "superseded" ? "round superseded" : "round cancelled");
}

/**
 * A round that failed: first everything left of it is stopped (no model is called after its end),
 * then its board and check say the public reason, and the store records it failed.
 */
export async function failRound(run: RoundRun, error: unknown): Promise<void> {
  const { deps, fields } = run;
  if (isHandedOver(run.lease)) {
    // Most likely the stop itself: whoever takes the round next runs it again.
    deps.log.warn({ ...fields, err: error }, "round stopped here; it resumes elsewhere");
    return;
  }
  run.lease.stop({ kind: "ended" });
  // The board, the check and the store say only the public reason; the log has it all.
  const reason = publicFailureReason(error);
  deps.log.error({ ...fields, err: error }, "round failed");
  run.board?.update({
    ...cancelRemaining(run.status, "round failed", deps.clock.now()),
    finished: true,
    failure: reason,
  });
  await run.board?.flush().catch(() => false);
  await endRound(
    run.octokit,
    run.round,
    run.lease,
    run.checkRunId,
    {
      ending: { state: "failed", failure: reason },
      conclusion: "neutral",
      check: failedCheck(reason),
    },
    deps.clock,
  ).catch((endError: unknown) =>
    deps.log.warn({ ...fields, err: describeError(endError) }, "could not end the failed round"),
  );
}

/** How a superseded or cancelled round ends: its reason (for the board), the store's record, its check. */
export function cancelledClosing(
  stop: Extract<StopReason, { kind: "superseded" | "cancelled" }>,
): RoundClosing & { reason: string } {
  if (stop.kind === "superseded") {
    const reason = supersededReason(stop.by);
    return {
      reason,
      ending: { state: "cancelled", failure: reason, supersededBy: stop.by },
      conclusion: "cancelled",
      check: supersededCheck(stop.by),
    };
  }
  return {
    reason: stop.reason,
    ending: { state: "cancelled", failure: stop.reason },
    conclusion: "cancelled",
    check: cancelledCheck(stop.reason),
  };
}

function isHandedOver(lease: RoundLease): boolean {
  const kind = lease.reason()?.kind;
  return kind === "shutdown" || kind === "lost";
}
