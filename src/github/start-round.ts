import { type ConfigIssue, planReview } from "../config/index.js";
import { MARKERS, renderInvalidConfigNotice, supersededReason } from "../render/index.js";
import type { RoundTrigger } from "../run/store/index.js";
import { findOwnComment } from "./find-own-comment.js";
import type { GitHubClient, RepoRef } from "./github-client.js";
import { type LoadedRepoConfig, loadRepoConfig, REPO_CONFIG_PATH } from "./load-repo-config.js";
import { postWaitingBoard } from "./post-waiting-board.js";
import type { RoundDependencies } from "./run-pull-request-round.js";
import { upsertStickyComment } from "./upsert-sticky-comment.js";

export interface RoundRequest {
  repo: RepoRef;
  installationId: number;
  pullNumber: number;
  /** The PR's current head SHA. */
  headSha: string;
  draft: boolean;
  trigger: RoundTrigger;
}

export type StartOutcome =
  | { kind: "started"; roundId: string }
  | { kind: "joined"; roundId: string }
  | { kind: "skipped"; reason: string };

/**
 * Decides whether a trigger starts a round, then queues it for whichever
 * worker is free: the repo's config (from the default branch) may turn
 * pushes off or skip drafts; a trigger for a SHA whose round is queued or
 * running joins it; a newer SHA cancels the older round wherever it runs.
 * A push's round waits `review.debounceSeconds` on the queue (its board says
 * so at once), so a burst of pushes supersedes its own waiting rounds and is
 * reviewed once; a comment or re-run does not wait, and joining a waiting
 * round starts it now.
 */
export async function startRound(
  octokit: GitHubClient,
  request: RoundRequest,
  deps: RoundDependencies,
  preloaded?: LoadedRepoConfig,
): Promise<StartOutcome> {
  if (!deps.registry.accepting) return { kind: "skipped", reason: "shutting down" };
  const repoConfig = warnIfInvalid(
    preloaded ?? (await loadRepoConfig(octokit, request.repo)),
    request,
    deps,
  );
  if (request.trigger.kind === "push") {
    if (repoConfig.config.onPush === "off")
      return { kind: "skipped", reason: "onPush is off for this repository" };
    if (request.draft && !repoConfig.config.drafts)
      return { kind: "skipped", reason: "draft pull request" };
  }
  const { plan, lenses, issues } = planReview(deps.config, repoConfig, deps.lenses);
  if (issues.length > 0) await postConfigNotice(octokit, request, deps, issues);

  const started = await deps.store.startRound({
    repo: request.repo,
    installationId: request.installationId,
    pullNumber: request.pullNumber,
    headSha: request.headSha,
    trigger: request.trigger,
  });
  const reason = supersededReason(request.headSha);
  for (const old of started.superseded) await deps.queue.cancel(old.id, reason);
  const delayMs = request.trigger.kind === "push" ? deps.config.review.debounceSeconds * 1000 : 0;
  // Enqueueing is idempotent: a joined round whose job was lost (a receiver died
  // between the two writes) gets its job back here, and a shorter delay starts it sooner.
  await deps.queue.enqueue(
    { roundId: started.round.id, installationId: request.installationId },
    { delayMs },
  );
  const { round } = started;
  // Not yet taken and no board of its own: a redelivery after a failed post posts it again.
  if (
    delayMs > 0 &&
    round.state === "queued" &&
    round.attempts === 0 &&
    round.artifacts.statusCommentId === undefined
  ) {
    const startsAt = new Date(deps.clock.now() + delayMs);
    await postWaitingBoard(octokit, { round, plan, lenses }, startsAt, deps);
  }
  if (!started.created) return { kind: "joined", roundId: started.round.id };
  return { kind: "started", roundId: started.round.id };
}

function warnIfInvalid(
  loaded: LoadedRepoConfig,
  request: RoundRequest,
  deps: RoundDependencies,
): LoadedRepoConfig {
  if (loaded.issues !== null) {
    deps.log.warn(
      { repo: `${request.repo.owner}/${request.repo.repo}` },
      "invalid repo config; using defaults",
    );
  }
  return loaded;
}

async function postConfigNotice(
  octokit: GitHubClient,
  request: RoundRequest,
  deps: RoundDependencies,
  issues: ConfigIssue[],
): Promise<void> {
  const target = {
    repo: request.repo,
    issueNumber: request.pullNumber,
    marker: MARKERS.configNotice,
    botLogin: deps.botLogin,
  };
  const body = renderInvalidConfigNotice(issues, { source: REPO_CONFIG_PATH });
  const existing = await findOwnComment(
    octokit,
    request.repo,
    request.pullNumber,
    MARKERS.configNotice,
    deps.botLogin,
  );
  if (existing?.body === body) return;
  await upsertStickyComment(
    octokit,
    { ...target, ...(existing === null ? {} : { knownId: existing.id }) },
    body,
  );
}
