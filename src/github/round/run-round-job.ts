import { planReview } from "../../config/index.js";
import { closedCheck, movedOnCheck } from "../../render/index.js";
import type { ClaimedRound } from "../../run/index.js";
import type { GitHubClient } from "../github-client.js";
import { isForkPullRequest } from "../is-fork-pull-request.js";
import { loadRepoConfig } from "../load-repo-config.js";
import type { RoundDependencies } from "../round-dependencies.js";
import { endRound } from "./end-round.js";
import { holdReaderRoundAgain } from "./hold-reader-round-again.js";
import { runPullRequestRound } from "./run-pull-request-round.js";

/**
 * The worker's side of a claimed round, fresh or resumed: a round whose pull request moved on
 * (closed, or a newer head) ends cancelled; a reader's round over a reader limit again waits
 * (holdReaderRoundAgain); otherwise it is planned from the repository's config as it is now and
 * run to its end, without paying again for the lenses that already ended.
 * Throws only before the round started (GitHub unreachable): the worker retries it after a
 * backoff, spending an attempt.
 */
export async function runRoundJob(
  octokit: GitHubClient,
  claimed: ClaimedRound,
  deps: RoundDependencies,
): Promise<void> {
  const { round, lease } = claimed;
  const fields = {
    round: round.id,
    repo: `${round.repo.owner}/${round.repo.repo}`,
    pr: round.pullNumber,
  };
  const { data: pull } = await octokit.rest.pulls.get({
    ...round.repo,
    pull_number: round.pullNumber,
  });
  if (pull.state !== "open" || pull.head.sha !== round.headSha) {
    const moved = pull.head.sha !== round.headSha;
    await endRound(octokit, round, lease, round.artifacts.checkRunId, {
      ending: {
        state: "cancelled",
        failure: "the pull request moved on before the round ran",
        ...(moved ? { supersededBy: pull.head.sha } : {}),
      },
      conclusion: "cancelled",
      check: moved ? movedOnCheck(pull.head.sha) : closedCheck(),
    });
    deps.log.info(fields, "round cancelled: the pull request moved on");
    return;
  }
  const loaded = await loadRepoConfig(octokit, round.repo);
  // The receiver already posted the notice for an invalid config: run on the defaults.
  const { plan, lenses } = planReview(deps.config, loaded, deps.lenses);
  if (await holdReaderRoundAgain(octokit, claimed, { plan, lenses }, deps)) return;
  deps.log.info(
    claimed.resumed ? { ...fields, finishedLenses: claimed.finished.length } : fields,
    claimed.resumed ? "resuming round" : "running round",
  );
  await runPullRequestRound(
    octokit,
    {
      round,
      lease,
      plan,
      lenses,
      finished: claimed.finished,
      resumed: claimed.resumed,
      // From the pull request as GitHub shows it now, not from the delivery: a round taken
      // by another worker or resumed after a restart decides from the same source.
      fromFork: isForkPullRequest(pull),
      // Read a moment ago: the snapshot takes the title, description and SHAs from it.
      pull,
    },
    deps,
  );
}
