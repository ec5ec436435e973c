import {
  type ConfigIssue,
  type FilterDecision,
  type FilteredPullRequest,
  filterPullRequest,
  planReview,
  type RepoFilters,
} from "../config/index.js";
import { MARKERS, renderInvalidConfigNotice, shortSha } from "../render/index.js";
import type { RoundTrigger, StartRoundResult } from "../run/store/index.js";
import { findOwnComment } from "./find-own-comment.js";
import type { GitHubClient, RepoRef } from "./github-client.js";
import { type LoadedRepoConfig, loadRepoConfig, REPO_CONFIG_PATH } from "./load-repo-config.js";
import { type PushPace, pacePush } from "./pace-push.js";
import { postWaitingBoard } from "./post-waiting-board.js";
import { publishFilterSkip } from "./publish-filter-skip.js";
import type { RoundDependencies } from "./round-dependencies.js";
import { upsertStickyComment } from "./upsert-sticky-comment.js";
import { WriteBudgetTimeoutError } from "./write-budget.js";

export interface RoundRequest {
  repo: RepoRef;
  installationId: number;
  pullNumber: number;
  /**
   * The head the trigger is about (a push's delivery, a re-run's check); null: whatever the
   * pull request's head is now (a comment). A head that is no longer the PR's starts nothing.
   */
  headSha: string | null;
  trigger: RoundTrigger;
  /**
   * A push's trigger is a label added or removed: it starts a round only when no filter holds
   * the PR back now and its head was never reviewed (a label toggled on a reviewed head reviews
   * nothing again), and a filter that still holds says nothing more (the head was told when it
   * was pushed).
   */
  labelChange?: boolean;
}

export type StartOutcome =
  | { kind: "started"; roundId: string }
  | { kind: "joined"; roundId: string }
  | { kind: "skipped"; reason: string };

/**
 * Decides whether a trigger starts a round, then wakes a worker for it. The repo's config (from
 * the default branch) may turn pushes off or skip drafts. Under the pull request's lock, shared
 * by receivers in every process, the PR's head is read from GitHub: a trigger for an older head
 * (GitHub does not order deliveries) starts nothing, and a round at the current head supersedes
 * every live round at another SHA — all older — wherever it runs. A trigger for a head whose
 * round is queued or running joins it. A push's round is due after `review.debounceSeconds`
 * (its board says so at once), so a burst of pushes supersedes its own waiting rounds and is
 * reviewed once; a comment or re-run is due at once, and joining a waiting round brings it forward.
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
  const push = request.trigger.kind === "push";
  if (push && repoConfig.config.onPush === "off") {
    return { kind: "skipped", reason: "onPush is off for this repository" };
  }
  const { plan, lenses, issues } = planReview(deps.config, repoConfig, deps.lenses);
  if (issues.length > 0) await postConfigNotice(octokit, request, deps, issues);
  const decided = await decideUnderLock(octokit, request, deps, repoConfig.config);
  if ("skipped" in decided) {
    // Filtered out: said on the PR's head (a check, and a comment for a PR too large), not silence.
    if (decided.filtered !== undefined) {
      const { headSha, decision } = decided.filtered;
      await publishFilterSkip(
        octokit,
        { ...request, headSha, trigger: repoConfig.config.trigger },
        decision,
        deps,
      );
    }
    return { kind: "skipped", reason: decided.skipped };
  }
  const { started, pace } = decided;
  const { delayMs } = pace;
  // Their holders, in whatever process, read the store now: superseded, they stop.
  for (const old of started.superseded) await deps.queue.hint(old.id);
  const { round } = started;
  // A wake-up per trigger: idempotent, so a joined round whose wake-up was lost gets one back.
  // An early one is harmless (the claim finds the round not yet due and wakes it again then),
  // so the delay asked for is the wake-up's, whatever clock the store keeps.
  const dueInMs = round.notBefore === null ? 0 : delayMs;
  await deps.queue.enqueue(
    { roundId: round.id, installationId: request.installationId },
    { delayMs: dueInMs },
  );
  // Not yet taken and no board of its own: a redelivery after a failed post posts it again.
  if (
    dueInMs > 0 &&
    round.state === "queued" &&
    round.leaseEpoch === 0 &&
    round.artifacts.statusCommentId === undefined
  ) {
    const waiting = { round, plan, lenses, heldBecause: pace.heldBecause };
    await showWaiting(octokit, started, waiting, new Date(deps.clock.now() + dueInMs), deps);
  }
  return { kind: started.created ? "started" : "joined", roundId: round.id };
}

type Decision =
  | {
      skipped: string;
      /** The repository's filters skipped the push: what its head is told. */
      filtered?: { headSha: string; decision: Exclude<FilterDecision, { kind: "review" }> };
    }
  | { started: StartRoundResult; pace: Exclude<PushPace, { kind: "skip" }> };

/**
 * Under the pull request's lock, shared by every receiver: GitHub's current head decides (a
 * trigger for an older head starts nothing), then, for a push only, the repository's filters
 * (a writer's comment or re-run overrides them), the reader limits, then the round in the store.
 */
async function decideUnderLock(
  octokit: GitHubClient,
  request: RoundRequest,
  deps: RoundDependencies,
  { drafts, filters }: { drafts: boolean; filters: RepoFilters },
): Promise<Decision> {
  const push = request.trigger.kind === "push";
  return deps.store.lockPullRequest(
    request.repo,
    request.pullNumber,
    async (): Promise<Decision> => {
      const { data: pull } = await octokit.rest.pulls.get({
        ...request.repo,
        pull_number: request.pullNumber,
      });
      if (pull.state !== "open") return { skipped: "pull request is not open" };
      if (request.headSha !== null && pull.head.sha !== request.headSha) {
        return {
          skipped: `late delivery for ${shortSha(request.headSha)}: the pull request is at ${shortSha(pull.head.sha)}`,
        };
      }
      if (push && (pull.draft ?? false) && !drafts) {
        return { skipped: "draft pull request" };
      }
      const decision = push ? filterPullRequest(filters, filteredFacts(pull)) : null;
      if (decision !== null && decision.kind !== "review") {
        return {
          skipped: `filtered: ${decision.reason}`,
          ...(request.labelChange === true
            ? {}
            : { filtered: { headSha: pull.head.sha, decision } }),
        };
      }
      if (request.labelChange === true) {
        const reviewed = await deps.store.previousRound(
          request.repo,
          request.pullNumber,
          Number.MAX_SAFE_INTEGER,
        );
        if (reviewed?.headSha === pull.head.sha) {
          return { skipped: `label change: ${shortSha(pull.head.sha)} was already reviewed` };
        }
      }
      const decide = async (): Promise<Decision> => {
        const pace: PushPace = push
          ? await pacePush(
              octokit,
              { ...request, headSha: pull.head.sha, author: pull.user ?? null },
              deps,
            )
          : { kind: "start", delayMs: 0, trigger: request.trigger };
        if (pace.kind === "skip") return { skipped: pace.reason };
        const started = await deps.store.startRound({
          repo: request.repo,
          installationId: request.installationId,
          pullNumber: request.pullNumber,
          headSha: pull.head.sha,
          trigger: pace.trigger,
          delayMs: pace.delayMs,
        });
        return { started, pace };
      };
      // A push counts its author's rounds across their pull requests, then starts its own:
      // under the author's lock, so two PRs of one reader cannot both take their last round.
      return push
        ? deps.store.lockReader(request.installationId, pull.user?.login ?? "ghost", decide)
        : decide();
    },
  );
}

/** What the filters read of the pull request, as GitHub has it now (not the webhook's copy). */
function filteredFacts(pull: {
  user: { login: string } | null;
  labels?: readonly { name?: string }[];
  title?: string;
  base?: { ref: string };
  changed_files?: number;
  additions?: number;
  deletions?: number;
}): FilteredPullRequest {
  return {
    author: pull.user?.login ?? null,
    // GitHub always sends these; a partial answer filters on what it has.
    labels: (pull.labels ?? []).flatMap((label) => (label.name === undefined ? [] : [label.name])),
    title: pull.title ?? "",
    baseRef: pull.base?.ref ?? "",
    changedFiles: pull.changed_files ?? 0,
    changedLines: (pull.additions ?? 0) + (pull.deletions ?? 0),
  };
}

/** The waiting board: carried from the round it supersedes when it can be, else posted. */
async function showWaiting(
  octokit: GitHubClient,
  started: StartRoundResult,
  waiting: Parameters<typeof postWaitingBoard>[1],
  startsAt: Date,
  deps: RoundDependencies,
): Promise<void> {
  if (await carryWaitingBoard(started, startsAt, deps)) return;
  await postWaitingBoard(octokit, waiting, startsAt, deps).catch((error: unknown) => {
    // The write budget has no token for it now: the round is queued, and its own board says
    // the rest when it starts.
    if (!(error instanceof WriteBudgetTimeoutError)) throw error;
    deps.log.warn(
      { round: waiting.round.id },
      "waiting board not posted: GitHub's write budget is spent",
    );
  });
}

/**
 * A push that supersedes a round still waiting for its first claim takes over that round's
 * waiting board as it is, without a write, when the board's start time stays within a quiet
 * period of the new one: a burst of pushes edits the board once, not once a push.
 */
async function carryWaitingBoard(
  started: StartRoundResult,
  startsAt: Date,
  deps: RoundDependencies,
): Promise<boolean> {
  const tolerance = Math.max(1000, deps.config.review.debounceSeconds * 1000);
  const waiting = started.superseded.find(
    (old) =>
      old.leaseEpoch === 0 &&
      old.artifacts.statusCommentId !== undefined &&
      old.notBefore !== null &&
      Math.abs(old.notBefore.getTime() - startsAt.getTime()) <= tolerance,
  );
  const id = waiting?.artifacts.statusCommentId;
  if (id === undefined) return false;
  await deps.store.setArtifacts(started.round.id, { statusCommentId: id });
  return true;
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
