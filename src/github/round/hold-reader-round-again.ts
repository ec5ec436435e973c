import type { LensDefinition } from "../../agent/index.js";
import type { ReviewPlan } from "../../config/index.js";
import type { ClaimedRound } from "../../run/index.js";
import { isReaderRound } from "../../run/store/index.js";
import type { GitHubClient } from "../github-client.js";
import { postWaitingBoard } from "../post-waiting-board.js";
import { readerHoldAtClaim } from "../reader-hold.js";
import type { RoundDependencies } from "../round-dependencies.js";
import { WriteBudgetTimeoutError } from "../write-budget.js";

/**
 * A reader's round, claimed for its first run, is checked against the reader limits again
 * under the reader's lock (`readerHoldAtClaim`): two rounds held for one slot and woken
 * together, or a round held overnight, must not all run. If a limit applies again, the round
 * goes back to waiting until it lifts (`hold`: no attempt spent, counted as not run), woken
 * then, its board saying why. The hold is taken inside the lock, so the next round of the
 * reader checked sees this one as waiting. A maintainer's trigger that joined the round made
 * it the maintainer's (no longer a reader's round): it is never held. True when held (or lost
 * meanwhile): the caller runs nothing.
 */
export async function holdReaderRoundAgain(
  octokit: GitHubClient,
  claimed: ClaimedRound,
  waiting: { plan: ReviewPlan; lenses: readonly LensDefinition[] },
  deps: RoundDependencies,
): Promise<boolean> {
  const { round, lease } = claimed;
  const actor = round.trigger.actor;
  if (!isReaderRound(round) || actor === undefined || claimed.resumed) return false;
  const held = await deps.store.lockReader(round.installationId, actor, async () => {
    const now = deps.clock.now();
    const decision = await readerHoldAtClaim(deps.store, deps.config.readers, round, now);
    if (decision.kind !== "hold") return null;
    const delayMs = Math.max(0, decision.untilMs - now);
    return { ...decision, delayMs, ok: await lease.hold(delayMs) };
  });
  if (held === null) return false;
  const fields = { round: round.id, repo: `${round.repo.owner}/${round.repo.repo}` };
  if (!held.ok) return true;
  await deps.queue.enqueue(
    { roundId: round.id, installationId: round.installationId },
    { delayMs: held.delayMs },
  );
  deps.log.info({ ...fields, because: held.because }, "round held again: a reader limit");
  const board = {
    round,
    ...waiting,
    heldBecause: held.because,
    knownId: round.artifacts.statusCommentId,
  };
  await postWaitingBoard(octokit, board, new Date(held.untilMs), deps).catch((error: unknown) => {
    // The round is held already (thrown, the worker would retry a round it no longer holds):
    // reported, and the board says the rest when the round runs.
    const why =
      error instanceof WriteBudgetTimeoutError
        ? "GitHub's write budget is spent"
        : error instanceof Error
          ? error.message
          : String(error);
    deps.log.warn({ ...fields, error: why }, "waiting board not edited");
  });
  return true;
}
