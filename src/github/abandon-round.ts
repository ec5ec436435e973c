import { failedCheck } from "../render/index.js";
import type { StoredRound } from "../run/store/index.js";
import { endRound } from "./end-round.js";
import type { GitHubClient } from "./github-client.js";
import type { RoundDependencies } from "./run-pull-request-round.js";

/**
 * Gives a round up for good (it ran out of attempts): failed in the store, its
 * check completed with the reason and how to try again, a warning in the log.
 */
export async function abandonRound(
  octokit: GitHubClient,
  round: Pick<StoredRound, "id" | "repo" | "pullNumber" | "artifacts">,
  failure: string,
  deps: Pick<RoundDependencies, "store" | "log">,
): Promise<void> {
  deps.log.warn(
    {
      round: round.id,
      repo: `${round.repo.owner}/${round.repo.repo}`,
      pr: round.pullNumber,
      failure,
    },
    "round abandoned after repeated attempts",
  );
  await endRound(
    octokit,
    round,
    round.artifacts.checkRunId,
    { ending: { state: "failed", failure }, conclusion: "neutral", check: failedCheck(failure) },
    deps.store,
  );
}
