import { ConfigError } from "../config/config-error.js";
import { DEFAULT_REPO_CONFIG } from "../config/repo-config-schema.js";
import { resolveReviewPlan } from "../config/resolve-review-plan.js";
import { describeError } from "./describe-error.js";
import type { GitHubClient } from "./github-client.js";
import { loadRepoConfig } from "./load-repo-config.js";
import { type RoundDependencies, runPullRequestRound } from "./run-pull-request-round.js";
import { lensesFor } from "./start-round.js";

/** A round that keeps crashing the process is given up after this many starts. */
export const MAX_ROUND_ATTEMPTS = 3;

/**
 * On start: rounds left queued or running by a crash or a deploy are resumed.
 * Lenses already finished are not paid for again (the store has their
 * reports); the board says "resumed". A round whose PR moved on is cancelled.
 */
export async function resumeUnfinishedRounds(
  installationClient: (installationId: number) => Promise<GitHubClient>,
  deps: RoundDependencies,
): Promise<Promise<void>[]> {
  const running: Promise<void>[] = [];
  for (const { round, lensReports } of await deps.store.unfinishedRounds()) {
    const fields = {
      round: round.id,
      repo: `${round.repo.owner}/${round.repo.repo}`,
      pr: round.pullNumber,
    };
    try {
      if (round.attempts >= MAX_ROUND_ATTEMPTS) {
        await deps.store.finishRound(round.id, {
          state: "failed",
          failure: `gave up after ${round.attempts} attempts`,
        });
        deps.log.warn(fields, "round abandoned after repeated attempts");
        continue;
      }
      const octokit = await installationClient(round.installationId);
      const { data: pull } = await octokit.rest.pulls.get({
        ...round.repo,
        pull_number: round.pullNumber,
      });
      if (pull.state !== "open" || pull.head.sha !== round.headSha) {
        await deps.store.finishRound(round.id, {
          state: "cancelled",
          failure: "the pull request moved on while Gadfly was down",
          ...(pull.head.sha === round.headSha ? {} : { supersededBy: pull.head.sha }),
        });
        continue;
      }
      const loaded = await loadRepoConfig(octokit, round.repo);
      let plan = resolveReviewPlan(deps.config, DEFAULT_REPO_CONFIG);
      try {
        plan = resolveReviewPlan(deps.config, loaded.config);
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
      }
      deps.log.info({ ...fields, finishedLenses: lensReports.length }, "resuming round");
      running.push(
        runPullRequestRound(
          octokit,
          {
            round,
            plan,
            lenses: lensesFor(plan, deps.lenses),
            finished: lensReports,
            resumed: true,
          },
          deps,
        ),
      );
    } catch (error) {
      deps.log.error({ ...fields, err: describeError(error) }, "could not resume round");
    }
  }
  return running;
}
