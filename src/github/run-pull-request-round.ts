import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import type { LensDefinition, LensReport } from "../agent/index.js";
import { publicFailureReason } from "../agent/index.js";
import type { AppConfig, ReviewPlan } from "../config/index.js";
import type { Consensus } from "../consensus/index.js";
import { buildConsensus } from "../consensus/index.js";
import { ChangedLineIndex } from "../diff/index.js";
import type { ModelFactory } from "../llm/index.js";
import type { RenderOptions } from "../render/index.js";
import { escapeInline, renderCheckRunOutput } from "../render/index.js";
import type { LensStatus, ReviewerLimiter, RoundStatus } from "../run/index.js";
import {
  CoalescedWriter,
  cancelRemaining,
  modelsSkippedForFork,
  prepareChangeSet,
  reviewRound,
} from "../run/index.js";
import type { WorkQueue } from "../run/queue/index.js";
import type { RunStore, StoredRound } from "../run/store/index.js";
import type { IsolationLevel } from "../sandbox/index.js";
import type { GadflyMetrics } from "../server/index.js";
import type { Clock } from "../time/index.js";
import { describeError } from "./describe-error.js";
import type { GitHubClient } from "./github-client.js";
import { checkAnnotations, completeCheckRun, startCheckRun } from "./publish-check-run.js";
import { publishConsensus } from "./publish-consensus.js";
import { publishInlineReview } from "./publish-inline-review.js";
import { publishStatusBoard } from "./publish-status-board.js";
import type { RoundRegistry, StopReason } from "./round-registry.js";
import { takeSnapshot } from "./take-snapshot.js";

export interface RoundDependencies {
  config: AppConfig;
  env: Readonly<Record<string, string | undefined>>;
  /** Every secret of the process (collectSecrets): never published, logged or stored. */
  secrets?: readonly string[];
  store: RunStore;
  /** Where new rounds go and superseded ones are cancelled, whichever worker holds them. */
  queue: WorkQueue;
  limiter: ReviewerLimiter;
  registry: RoundRegistry;
  /** Built-in lens definitions (and an operator's). */
  lenses: readonly LensDefinition[];
  dataDir: string;
  clock: Clock;
  boardIntervalMs: number;
  botLogin: string;
  log: RoundLog;
  /** Builds each reviewer's model (e.g. behind the per-provider cap); the provider's own by default. */
  createModel?: ModelFactory;
  metrics?: Pick<GadflyMetrics, "lens">;
  /**
   * How agent CLIs are isolated in this process (detected at start-up). Absent reads
   * as `none`, the weakest: agent CLIs then skip fork PRs unless a provider allows them.
   */
  agentIsolation?: IsolationLevel;
}

export interface RoundLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export interface PreparedRound {
  round: StoredRound;
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
}

/**
 * Runs one round end to end: check run, status board, snapshot, reviewers,
 * consensus, inline review, check completion. Never throws: a failure is
 * reported on the board and the check, a superseded or cancelled round ends
 * cancelled, and a shutdown or a lost job leaves the round to whoever takes
 * it next, writing nothing that says it ended.
 */
export async function runPullRequestRound(
  octokit: GitHubClient,
  prepared: PreparedRound,
  deps: RoundDependencies,
): Promise<void> {
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const registration = deps.registry.register(prepared.round.id, done);
  try {
    await runRegistered(octokit, prepared, deps, registration);
  } finally {
    finish();
  }
}

async function runRegistered(
  octokit: GitHubClient,
  prepared: PreparedRound,
  deps: RoundDependencies,
  registration: ReturnType<RoundRegistry["register"]>,
): Promise<void> {
  const { signal, stopReason } = registration;
  const { round, plan } = prepared;
  const { store, log } = deps;
  const repo = round.repo;
  const fields = {
    round: round.id,
    repo: `${repo.owner}/${repo.repo}`,
    pr: round.pullNumber,
    sha: round.headSha,
  };
  const render: RenderOptions = {
    lenses: Object.fromEntries(
      prepared.lenses.map((lens) => [lens.id, { title: lens.title, emoji: lens.emoji }]),
    ),
  };
  const workspaceDir = join(deps.dataDir, "workspaces", round.id);
  const skip = modelsSkippedForFork({
    fromFork: prepared.fromFork,
    models: plan.models,
    providers: deps.config.providers,
    // The provider's own factory (no createModel) builds agent models without the detected
    // isolation: the fork rule must then read the level those models really get.
    isolation: deps.createModel === undefined ? "none" : (deps.agentIsolation ?? "none"),
  });
  let status: RoundStatus = {
    headSha: round.headSha,
    round: round.number,
    updatedAt: new Date(deps.clock.now()),
    // A skipped model is shown skipped from the first edit: it never waits in the queue.
    reviewers: plan.models.map((model) => {
      const reason = skip.get(model.id);
      return {
        model: model.id,
        provider: model.provider,
        lenses: plan.lenses.map(
          (lens): LensStatus =>
            reason === undefined ? { lens, state: "queued" } : { lens, state: "skipped", reason },
        ),
      };
    }),
    notReviewed: [],
    finished: false,
    ...(prepared.resumed ? { resumed: true } : {}),
  };
  let checkRunId = round.artifacts.checkRunId;
  const holding = holdingCheck(round, deps.store, registration);
  const board = new CoalescedWriter<RoundStatus>({
    // Slower as the round ages (a twentieth of its age): a long round stays within GitHub's
    // hourly budget for edits, while the first minute stays live.
    intervalMs: (age) => Math.max(deps.boardIntervalMs, age / 20),
    clock: deps.clock,
    onError: (error) =>
      log.warn({ ...fields, err: describeError(error) }, "status board edit failed; will retry"),
    write: async (state) => {
      if (!(await holding())) return;
      const id = await publishStatusBoard(
        octokit,
        { repo, pullNumber: round.pullNumber, botLogin: deps.botLogin },
        state,
        render,
        boardId,
      );
      if (boardId !== id) {
        boardId = id;
        await store.setArtifacts(round.id, { statusCommentId: id });
      }
    },
  });
  let boardId = round.artifacts.statusCommentId;

  try {
    // Stopped while its job was still loading the pull request: nothing was written yet.
    const early = await settledStop(stopReason(), round.id, store);
    if (early?.kind === "superseded" || early?.kind === "cancelled") {
      const ending = cancelledEnding(early);
      if (checkRunId !== undefined) {
        await completeCheckRun(octokit, repo, checkRunId, "cancelled", ending.output);
      }
      await store.finishRound(round.id, { state: "cancelled", failure: ending.reason });
      return;
    }
    if (early !== null) return;
    // False when the round already ended (cancelled, or finished by another worker): nothing to do.
    if (!(await store.markRoundRunning(round.id))) return;
    if (checkRunId === undefined) {
      checkRunId = await startCheckRun(
        octokit,
        repo,
        round.headSha,
        {
          title: "Review in progress",
          summary: `Gadfly round ${round.number} is reviewing \`${round.headSha.slice(0, 7)}\`.`,
        },
        round.id,
      );
      await store.setArtifacts(round.id, { checkRunId });
    }
    board.update(status);

    await mkdir(workspaceDir, { recursive: true });
    const snapshot = await takeSnapshot(
      octokit,
      repo,
      round.pullNumber,
      round.headSha,
      workspaceDir,
    );
    const change = prepareChangeSet({
      title: snapshot.title,
      description: snapshot.description,
      headSha: round.headSha,
      files: snapshot.files,
      workspaceDir,
      ignore: plan.ignore,
      diffBudgetChars: plan.review.diffBudgetChars,
      alsoNotReviewed: snapshot.notReviewed,
    });
    const result = await reviewRound({
      plan,
      providers: deps.config.providers,
      lenses: prepared.lenses,
      change,
      round: round.number,
      env: deps.env,
      ...(deps.secrets === undefined ? {} : { secrets: deps.secrets }),
      signal,
      limiter: deps.limiter,
      ...(deps.createModel === undefined ? {} : { createModel: deps.createModel }),
      finished: prepared.finished,
      resumed: prepared.resumed,
      skip,
      clock: deps.clock,
      onStatus: (next) => {
        // A shutdown aborts lenses only to resume them later: the board keeps showing them
        // running rather than cancelled (and the round as unfinished). After a lost job,
        // the board is another worker's.
        if (handedOver(stopReason())) return;
        status = next;
        board.update(next);
      },
      onLensError: (model, lens, error) =>
        log.warn({ ...fields, model, lens, err: error }, "lens failed"),
      onTranscript: (model, lens, messages) =>
        store.saveTranscript(round.id, model, lens, messages),
      onLensReport: async (report) => {
        // A lens cut off by a shutdown (or a lost job) is not finished: it must run again.
        if (report.outcome === "cancelled" && handedOver(stopReason())) return;
        await store.saveLensReport(round.id, report);
        deps.metrics?.lens(report.outcome);
      },
    });
    status = result.status;

    const stop = await settledStop(stopReason(), round.id, store);
    if (stop?.kind === "shutdown") {
      log.info(fields, "round interrupted by shutdown; it resumes on the next start");
      await board.flush();
      return;
    }
    if (stop?.kind === "lost") {
      log.warn(fields, "round taken over by another worker; stopped here");
      return;
    }
    if (stop?.kind === "superseded" || stop?.kind === "cancelled") {
      const ending = cancelledEnding(stop);
      status = {
        ...cancelRemaining(status, ending.reason, deps.clock.now()),
        ...(stop.kind === "superseded" ? { supersededBy: stop.by } : {}),
        finished: true,
      };
      board.update(status);
      await board.flush();
      await completeCheckRun(octokit, repo, checkRunId, "cancelled", ending.output);
      await store.finishRound(round.id, {
        state: "cancelled",
        failure: ending.reason,
        ...(stop.kind === "superseded" ? { supersededBy: stop.by } : {}),
      });
      log.info(fields, stop.kind === "superseded" ? "round superseded" : "round cancelled");
      return;
    }
    // The last check before publishing: a worker that lost the round posts nothing twice.
    if (!(await holding())) {
      log.warn(fields, "round taken over by another worker; stopped before publishing");
      return;
    }

    const previous = await store.previousRound(repo, round.pullNumber, round.number);
    const consensus = buildConsensus({
      reports: result.reports,
      modelOrder: plan.models.map((model) => model.id),
      lensOrder: plan.lenses,
      providers: Object.fromEntries(plan.models.map((model) => [model.id, model.provider])),
      round: round.number,
      ...(previous === null
        ? {}
        : {
            previous: {
              headSha: previous.headSha,
              round: previous.round,
              findings: previous.findings,
            },
          }),
    });
    await publishRoundResults(octokit, {
      round,
      consensus,
      change,
      render,
      checkRunId,
      deps,
      status,
    });
    await board.flush();
    await store.finishRound(round.id, { state: "completed" });
    log.info(
      { ...fields, verdict: consensus.verdict, clusters: consensus.clusters.length },
      "round completed",
    );
  } catch (error) {
    // The board, the check and the store say only the public reason; the log has it all.
    const reason = publicFailureReason(error);
    if (handedOver(stopReason())) {
      // Most likely the stop itself: whoever takes the round next runs it again.
      log.warn({ ...fields, err: error }, "round stopped here; it resumes elsewhere");
      return;
    }
    log.error({ ...fields, err: error }, "round failed");
    status = {
      ...cancelRemaining(status, "round failed", deps.clock.now()),
      finished: true,
      failure: reason,
    };
    board.update(status);
    await board.flush().catch(() => false);
    if (checkRunId !== undefined) {
      await completeCheckRun(octokit, repo, checkRunId, "neutral", {
        title: "Gadfly could not finish this review",
        summary: `The review round failed: ${escapeInline(reason)}. Comment \`@gadfly review\` to try again.`,
      }).catch((checkError: unknown) =>
        log.warn({ ...fields, err: describeError(checkError) }, "could not complete the check run"),
      );
    }
    await store.finishRound(round.id, { state: "failed", failure: reason }).catch(() => false);
  } finally {
    await rm(workspaceDir, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** Shutdown and lost jobs hand the round over: nothing may say it ended. */
function handedOver(stop: StopReason | null): boolean {
  return stop?.kind === "shutdown" || stop?.kind === "lost";
}

/**
 * The optimistic version of a round's writes: every take of the round counts
 * an attempt in the store, so a worker whose round was taken by another one
 * (its job lost) sees a higher count than its own and stops writing.
 */
function holdingCheck(
  round: StoredRound,
  store: RunStore,
  registration: Pick<ReturnType<RoundRegistry["register"]>, "stopReason" | "stop">,
): () => Promise<boolean> {
  const mine = round.attempts + 1;
  return async () => {
    if (registration.stopReason()?.kind === "lost") return false;
    const current = await store.findRound(round.id);
    if (current !== null && current.attempts > mine) {
      registration.stop({ kind: "lost" });
      return false;
    }
    return true;
  };
}

/**
 * A cancellation from the queue says only why; the store says whether a newer
 * push superseded the round, and by which SHA (the board and the check show it).
 */
async function settledStop(
  stop: StopReason | null,
  roundId: string,
  store: RunStore,
): Promise<StopReason | null> {
  if (stop?.kind !== "cancelled") return stop;
  const by = (await store.findRound(roundId))?.supersededBy ?? null;
  return by === null ? stop : { kind: "superseded", by };
}

function cancelledEnding(stop: Extract<StopReason, { kind: "superseded" | "cancelled" }>): {
  reason: string;
  output: { title: string; summary: string };
} {
  if (stop.kind === "superseded") {
    const short = stop.by.slice(0, 7);
    return {
      reason: `superseded by ${short}`,
      output: {
        title: `Superseded by ${short}`,
        summary: `A newer push (\`${short}\`) started a new review round.`,
      },
    };
  }
  return {
    reason: stop.reason,
    output: {
      title: "Review cancelled",
      summary: `The review round was cancelled: ${stop.reason}.`,
    },
  };
}

interface PublishInput {
  round: StoredRound;
  consensus: Consensus;
  change: { files: Parameters<typeof ChangedLineIndex.fromFiles>[0] };
  render: RenderOptions;
  checkRunId: number;
  deps: RoundDependencies;
  status: RoundStatus;
}

/** Consensus comment, then the inline review linking to it, then the check. */
async function publishRoundResults(octokit: GitHubClient, input: PublishInput): Promise<void> {
  const { round, consensus, deps, render } = input;
  const repo = round.repo;
  const index = ChangedLineIndex.fromFiles(input.change.files);
  const fingerprints = consensus.clusters.map((cluster) => cluster.fingerprint);
  const published = await publishConsensus(octokit, consensus, {
    repo,
    pullNumber: round.pullNumber,
    botLogin: deps.botLogin,
    ...(round.artifacts.consensusCommentId === undefined
      ? {}
      : { knownId: round.artifacts.consensusCommentId }),
    meta: { runId: round.id, headSha: round.headSha, round: round.number, fingerprints },
    render,
  });
  await deps.store.setArtifacts(round.id, { consensusCommentId: published.id });

  // One review per round: a round resumed after its review went out (a crash while
  // publishing) does not post it again.
  if (round.artifacts.reviewId === undefined) {
    const alreadyPosted = new Set(
      (await deps.store.postedInline(repo, round.pullNumber)).map((posted) => posted.fingerprint),
    );
    const review = await publishInlineReview(octokit, {
      repo,
      pullNumber: round.pullNumber,
      headSha: round.headSha,
      clusters: consensus.clusters,
      index,
      alreadyPosted,
      consensusUrl: published.url,
      render,
    });
    if (review.reviewId !== null) {
      await deps.store.setArtifacts(round.id, { reviewId: review.reviewId });
      await recordPostedComments(octokit, input, review.reviewId, new Set(review.posted));
    }
  }
  await deps.store.saveFingerprints(
    round.id,
    consensus.clusters.map((cluster) => ({
      fingerprint: cluster.fingerprint,
      title: cluster.representative.title,
      file: cluster.representative.file,
      line: cluster.representative.line,
      severity: cluster.severity,
    })),
  );
  const output = renderCheckRunOutput(consensus, render);
  await completeCheckRun(
    octokit,
    repo,
    input.checkRunId,
    "neutral",
    output,
    checkAnnotations(consensus.clusters, index),
  );
}

async function recordPostedComments(
  octokit: GitHubClient,
  input: PublishInput,
  reviewId: number,
  posted: ReadonlySet<string>,
): Promise<void> {
  if (posted.size === 0) return;
  const { round } = input;
  const comments = await octokit.paginate(octokit.rest.pulls.listCommentsForReview, {
    ...round.repo,
    pull_number: round.pullNumber,
    review_id: reviewId,
    per_page: 100,
  });
  for (const comment of comments) {
    const fingerprint = /<!-- gadfly-finding:([^ ]+) -->/.exec(comment.body)?.[1];
    const decoded = fingerprint === undefined ? undefined : decodeURIComponent(fingerprint);
    if (decoded !== undefined && posted.has(decoded)) {
      await input.deps.store.savePostedInline(round.repo, round.pullNumber, decoded, comment.id);
    }
  }
}
