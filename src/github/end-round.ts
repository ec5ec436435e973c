import type { CheckOutput } from "../render/index.js";
import type { RoundEnding, StoredRound } from "../run/store/index.js";
import type { GitHubClient } from "./github-client.js";
import { completeCheckRun } from "./publish-check-run.js";
import type { RoundDependencies } from "./run-pull-request-round.js";

export interface RoundClosing {
  /** What the store records (state, public failure reason, superseding SHA). */
  ending: RoundEnding;
  conclusion: "neutral" | "cancelled";
  /** The check's last words. */
  check: CheckOutput;
}

/**
 * Ends a round that publishes no review: its check (when it has one) is completed,
 * so it never stays "in progress", and the store records why it ended — even when
 * GitHub refused the check (the error still reaches the caller).
 */
export async function endRound(
  octokit: GitHubClient,
  round: Pick<StoredRound, "id" | "repo">,
  checkRunId: number | undefined,
  closing: RoundClosing,
  store: RoundDependencies["store"],
): Promise<void> {
  try {
    if (checkRunId !== undefined) {
      await completeCheckRun(octokit, round.repo, checkRunId, closing.conclusion, closing.check);
    }
  } finally {
    await store.finishRound(round.id, closing.ending);
  }
}
