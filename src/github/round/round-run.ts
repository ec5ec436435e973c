import { join } from "node:path";
import type { LensDefinition, LensReport } from "../../agent/index.js";
import type { ReviewPlan } from "../../config/index.js";
import type { RenderOptions } from "../../render/index.js";
import type { CoalescedWriter, LensStatus, RoundLease, RoundStatus } from "../../run/index.js";
import { modelsSkippedForFork } from "../../run/index.js";
import type { StoredRound } from "../../run/store/index.js";
import type { GitHubClient } from "../github-client.js";
import type { RoundDependencies } from "../round-dependencies.js";
import type { PullRequestFields } from "../take-snapshot.js";
import type { WriteGrant } from "../write-grant.js";

/** A claimed round, planned from the repository's config as it is now, ready to run. */
export interface PreparedRound {
  round: StoredRound;
  /** The worker's hold on it: its signal, its stop, its fenced ending. */
  lease: RoundLease;
  plan: ReviewPlan;
  /** Lens definitions for `plan.lenses`, custom ones included. */
  lenses: LensDefinition[];
  /** Reports saved before a restart: not paid for again. */
  finished: readonly LensReport[];
  resumed: boolean;
  /**
   * The PR's head lives in another repository (a fork): read from GitHub by whoever runs
   * the round, each time it runs, so every worker, fresh or resuming, reads the same fact.
   */
  fromFork: boolean;
  /** The pull request as the job read it just before, for the snapshot; absent, it is read. */
  pull?: PullRequestFields;
}

/**
 * One run of a round, as its steps share it: what it is about, where it writes, and what it has
 * done so far (its check, its board, its status). Made by `openRoundRun`, which does no I/O, so
 * every step, the first included, runs inside the runner's error handling.
 */
export interface RoundRun {
  readonly octokit: GitHubClient;
  readonly prepared: PreparedRound;
  readonly deps: RoundDependencies;
  readonly round: StoredRound;
  readonly lease: RoundLease;
  /** The round's log fields. */
  readonly fields: { round: string; repo: string; pr: number; sha: string };
  readonly render: RenderOptions;
  /** The head's files, deleted when the run ends. */
  readonly workspaceDir: string;
  /** Models kept from a fork PR, with the reason the board shows. */
  readonly skip: ReadonlyMap<string, string>;
  status: RoundStatus;
  checkRunId: number | undefined;
  /** Set once the check and the board are under way. */
  board: CoalescedWriter<RoundStatus, WriteGrant | undefined> | null;
  /**
   * A newer round owns the PR's board now (a push that superseded this round posted its own
   * waiting board, or reviewed while this one published): this round edits it no more.
   */
  boardHandedOn: boolean;
}

export function openRoundRun(
  octokit: GitHubClient,
  prepared: PreparedRound,
  deps: RoundDependencies,
): RoundRun {
  const { round, plan } = prepared;
  const skip = modelsSkippedForFork({
    fromFork: prepared.fromFork,
    models: plan.models,
    providers: deps.config.providers,
    // The provider's own factory (no createModel) builds agent models without the detected
    // isolation: the fork rule must then read the level those models really get.
    isolation: deps.createModel === undefined ? "none" : (deps.agentIsolation ?? "none"),
  });
  return {
    octokit,
    prepared,
    deps,
    round,
    lease: prepared.lease,
    fields: {
      round: round.id,
      repo: `${round.repo.owner}/${round.repo.repo}`,
      pr: round.pullNumber,
      sha: round.headSha,
    },
    render: {
      lenses: Object.fromEntries(
        prepared.lenses.map((lens) => [lens.id, { title: lens.title, emoji: lens.emoji }]),
      ),
    },
    workspaceDir: join(deps.dataDir, "workspaces", round.id),
    skip,
    status: queuedStatus(prepared, skip, deps.clock.now()),
    checkRunId: round.artifacts.checkRunId,
    board: null,
    boardHandedOn: false,
  };
}

/** Offers a state to the board (once it exists). */
export function showOnBoard(run: RoundRun, status: RoundStatus): void {
  run.status = status;
  run.board?.update(status);
}

/** The board's first state: every lens queued, a skipped model's lenses skipped from the start. */
function queuedStatus(
  prepared: PreparedRound,
  skip: ReadonlyMap<string, string>,
  now: number,
): RoundStatus {
  return {
    headSha: prepared.round.headSha,
    round: prepared.round.number,
    updatedAt: new Date(now),
    reviewers: prepared.plan.models.map((model) => {
      const reason = skip.get(model.id);
      return {
        model: model.id,
        provider: model.provider,
        lenses: prepared.plan.lenses.map(
          (lens): LensStatus =>
            reason === undefined ? { lens, state: "queued" } : { lens, state: "skipped", reason },
        ),
      };
    }),
    notReviewed: [],
    finished: false,
    ...(prepared.resumed ? { resumed: true } : {}),
  };
}
