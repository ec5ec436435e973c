import type { LensDefinition } from "../agent/index.js";
import {
  ConfigError,
  DEFAULT_REPO_CONFIG,
  type RepoConfig,
  type ReviewPlan,
  resolveReviewPlan,
} from "../config/index.js";
import { MARKERS, renderInvalidConfigNotice } from "../render/index.js";
import type { RoundTrigger } from "../run/store/index.js";
import { findOwnComment } from "./find-own-comment.js";
import type { GitHubClient, RepoRef } from "./github-client.js";
import { type LoadedRepoConfig, loadRepoConfig, REPO_CONFIG_PATH } from "./load-repo-config.js";
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
 */
export async function startRound(
  octokit: GitHubClient,
  request: RoundRequest,
  deps: RoundDependencies,
  preloaded?: LoadedRepoConfig,
): Promise<StartOutcome> {
  if (!deps.registry.accepting) return { kind: "skipped", reason: "shutting down" };
  const repoConfig = toRepoConfig(
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
  const plan = resolvePlan(deps, repoConfig);
  if (plan.issues.length > 0) await postConfigNotice(octokit, request, deps, plan.issues);

  const started = await deps.store.startRound({
    repo: request.repo,
    installationId: request.installationId,
    pullNumber: request.pullNumber,
    headSha: request.headSha,
    trigger: request.trigger,
  });
  const reason = `superseded by ${request.headSha.slice(0, 7)}`;
  for (const old of started.superseded) await deps.queue.cancel(old.id, reason);
  // Enqueueing is idempotent: a joined round whose job was lost (a receiver died
  // between the two writes) gets its job back here.
  await deps.queue.enqueue({ roundId: started.round.id, installationId: request.installationId });
  if (!started.created) return { kind: "joined", roundId: started.round.id };
  return { kind: "started", roundId: started.round.id };
}

/** Lens definitions for a plan: the built-in ones it names, then the repository's own. */
export function lensesFor(plan: ReviewPlan, builtIn: readonly LensDefinition[]): LensDefinition[] {
  const byId = new Map(builtIn.map((lens) => [lens.id, lens]));
  const custom = new Map(
    plan.customLenses.map((lens): [string, LensDefinition] => [
      lens.id,
      {
        id: lens.id,
        title: lens.title,
        emoji: lens.emoji,
        prompt: lens.prompt,
        source: REPO_CONFIG_PATH,
      },
    ]),
  );
  return plan.lenses.flatMap((id) => byId.get(id) ?? custom.get(id) ?? []);
}

function toRepoConfig(
  loaded: LoadedRepoConfig,
  request: RoundRequest,
  deps: RoundDependencies,
): { config: RepoConfig; issues: ConfigError["issues"] } {
  if (loaded.issues !== null) {
    deps.log.warn(
      { repo: `${request.repo.owner}/${request.repo.repo}` },
      "invalid repo config; using defaults",
    );
  }
  return { config: loaded.config, issues: loaded.issues ?? [] };
}

function resolvePlan(
  deps: RoundDependencies,
  repoConfig: { config: RepoConfig; issues: ConfigError["issues"] },
): { plan: ReviewPlan; issues: ConfigError["issues"] } {
  try {
    return { plan: resolveReviewPlan(deps.config, repoConfig.config), issues: repoConfig.issues };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return {
      plan: resolveReviewPlan(deps.config, DEFAULT_REPO_CONFIG),
      issues: [...repoConfig.issues, ...error.issues],
    };
  }
}

async function postConfigNotice(
  octokit: GitHubClient,
  request: RoundRequest,
  deps: RoundDependencies,
  issues: ConfigError["issues"],
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
