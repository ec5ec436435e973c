import type { LensReport } from "../agent/index.js";
import { planReview } from "../config/index.js";
import type { StoredRound } from "../run/store/index.js";
import type { GitHubClient } from "./github-client.js";
import { isForkPullRequest } from "./is-fork-pull-request.js";
import { loadRepoConfig } from "./load-repo-config.js";
import { completeCheckRun } from "./publish-check-run.js";
import { type RoundDependencies, runPullRequestRound } from "./run-pull-request-round.js";

/** A round that keeps crashing whoever runs it is given up after this many starts. */
export const MAX_ROUND_ATTEMPTS = 3;

export interface RoundJobInput {
  round: StoredRound;
  /** Lenses already ended: not called again. */
  finished: LensReport[];
  /** Taken before (a restart, a dead or stopped worker): the board says "resumed". */
  resumed: boolean;
}

/**
 * The worker's side of a round, fresh or resumed: a round whose pull request
 * moved on (closed, or a newer head) ends cancelled; otherwise it is planned
 * from the repository's config as it is now and run to its end, without
 * paying again for the lenses that already ended. Throws only before the
 * round started (GitHub unreachable): the queue retries the job.
 */
export async function runRoundJob(
  octokit: GitHubClient,
  input: RoundJobInput,
  deps: RoundDependencies,
): Promise<void> {
  const { round } = input;
  const fields = {
    round: round.id,
    repo: `${round.repo.owner}/${round.repo.repo}`,
    pr: round.pullNumber,
  };
  if (round.attempts >= MAX_ROUND_ATTEMPTS) {
    const failure = `gave up after ${round.attempts} attempts`;
    await deps.store.finishRound(round.id, { state: "failed", failure });
    await endCheck(octokit, round, "neutral", {
      title: "Gadfly could not finish this review",
      summary: `The review round was ${failure}. Comment \`@gadfly review\` to try again.`,
    });
    deps.log.warn(fields, "round abandoned after repeated attempts");
    return;
  }
  const { data: pull } = await octokit.rest.pulls.get({
    ...round.repo,
    pull_number: round.pullNumber,
  });
  if (pull.state !== "open" || pull.head.sha !== round.headSha) {
    const moved = pull.head.sha !== round.headSha;
    await deps.store.finishRound(round.id, {
      state: "cancelled",
      failure: "the pull request moved on before the round ran",
      ...(moved ? { supersededBy: pull.head.sha } : {}),
    });
    await endCheck(octokit, round, "cancelled", {
      title: moved ? `Superseded by ${pull.head.sha.slice(0, 7)}` : "Pull request closed",
      summary: "The pull request moved on before this review round could finish.",
    });
    deps.log.info(fields, "round cancelled: the pull request moved on");
    return;
  }
  const loaded = await loadRepoConfig(octokit, round.repo);
  // The receiver already posted the notice for an invalid config: run on the defaults.
  const { plan, lenses } = planReview(deps.config, loaded, deps.lenses);
  deps.log.info(
    input.resumed ? { ...fields, finishedLenses: input.finished.length } : fields,
    input.resumed ? "resuming round" : "running round",
  );
  await runPullRequestRound(
    octokit,
    {
      round,
      plan,
      lenses,
      finished: input.finished,
      resumed: input.resumed,
      // From the pull request as GitHub shows it now, not from the delivery: a job taken
      // by another worker or resumed after a restart decides from the same source.
      fromFork: isForkPullRequest(pull),
    },
    deps,
  );
}

/** Completes the round's check, if it has one, so a round ended here does not stay in progress. */
async function endCheck(
  octokit: GitHubClient,
  round: StoredRound,
  conclusion: "neutral" | "cancelled",
  output: { title: string; summary: string },
): Promise<void> {
  const checkRunId = round.artifacts.checkRunId;
  if (checkRunId === undefined) return;
  await completeCheckRun(octokit, round.repo, checkRunId, conclusion, output);
}
