import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { roundUsage, usageFigures } from "../accounting/index.js";
import type { LensDefinition, LensReport, PromptStyle } from "../agent/index.js";
import { publicFailureReason } from "../agent/index.js";
import type { AppConfig, ReviewPlan } from "../config/index.js";
import type { ModelFactory } from "../llm/index.js";
import type { RenderOptions } from "../render/index.js";
import { failedCheck } from "../render/index.js";
import type {
  LensStatus,
  ReviewerLimiter,
  ReviewScope,
  RoundStatus,
  ScopeStatus,
} from "../run/index.js";
import { cancelRemaining, modelsSkippedForFork, reviewChange } from "../run/index.js";
import type { WorkQueue } from "../run/queue/index.js";
import type { RunStore, StoredRound } from "../run/store/index.js";
import type { IsolationLevel } from "../sandbox/index.js";
import type { GadflyMetrics } from "../server/index.js";
import type { Clock } from "../time/index.js";
import { applyFeedback } from "./apply-feedback.js";
import type { ConventionCache } from "./convention-cache.js";
import { describeError } from "./describe-error.js";
import { endRound } from "./end-round.js";
import { findOwnCheckRun } from "./find-own-check-run.js";
import type { GitHubClient } from "./github-client.js";
import type { KillPoint } from "./kill-points.js";
import { loadConventionFiles } from "./load-conventions.js";
import { startCheckRun } from "./publish-check-run.js";
import { publishRoundResults } from "./publish-round-results.js";
import { PublishingStopped } from "./publishing-stopped.js";
import { readReviewScope } from "./read-review-scope.js";
import type { RoundRegistry, StopReason } from "./round-registry.js";
import { cancelledClosing, type RoundStop, roundStop } from "./round-stop.js";
import { createStatusBoardWriter } from "./status-board-writer.js";
import { type PullRequestFields, takeSnapshot } from "./take-snapshot.js";

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
  metrics?: Pick<GadflyMetrics, "lens" | "modelUsage">;
  /** The base's convention files by commit, shared by the process's rounds; read afresh if absent. */
  conventionCache?: ConventionCache;
  /**
   * How agent CLIs are isolated in this process (detected at start-up). Absent reads
   * as `none`, the weakest: agent CLIs then skip fork PRs unless a provider allows them.
   */
  agentIsolation?: IsolationLevel;
  /**
   * Test-only: called at each named publishing point (kill-points.ts); the process dies at the
   * one `GADFLY_TEST_KILL_POINT` names. Absent unless a test set it.
   */
  killPoint?: (point: KillPoint) => void;
  /** How reviewers are given the change; default compact. full-diff is the economy benchmark's baseline. */
  promptStyle?: PromptStyle;
  /** Every round reviews the whole pull request, never the step: the economy benchmark's baseline. */
  everyRoundFull?: boolean;
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
  /** The pull request as the job read it just before, for the snapshot; absent, it is read. */
  pull?: PullRequestFields;
}

/**
 * Runs one round end to end: check run, status board, snapshot, review,
 * consensus, publishing. Never throws: a failure is reported on the board and
 * the check, a superseded or cancelled round ends cancelled, and a shutdown or
 * a lost job leaves the round to whoever takes it next, writing nothing that
 * says it ended.
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
  const stop = roundStop(
    deps.registry.register(prepared.round.id, done),
    prepared.round,
    deps.store,
  );
  try {
    await runRegistered(octokit, prepared, deps, stop);
  } finally {
    finish();
  }
}

async function runRegistered(
  octokit: GitHubClient,
  prepared: PreparedRound,
  deps: RoundDependencies,
  stop: RoundStop,
): Promise<void> {
  const { round, plan } = prepared;
  const { store, log } = deps;
  const fields = {
    round: round.id,
    repo: `${round.repo.owner}/${round.repo.repo}`,
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
  let status = queuedStatus(prepared, skip, deps.clock.now());
  let checkRunId = round.artifacts.checkRunId;
  // With a quiet period, the push that superseded this round posted its own waiting board at
  // once: this round's last edits would hide it, so the board is left to the newer round. So it
  // is when the push lands while this round publishes: the newer round may have reviewed and
  // written its board meanwhile (this round waited on GitHub), and a late "superseded" edit
  // would overwrite its result.
  let supersededWhilePublishing = false;
  const boardHandedOn = async () =>
    supersededWhilePublishing ||
    (deps.config.review.debounceSeconds > 0 && (await stop.settled())?.kind === "superseded");
  // The round before on this PR: what this one reviews since, and the ids of the sticky
  // comments it wrote, which this round edits without listing the PR's comments to find them.
  const previous = await store.previousRound(round.repo, round.pullNumber, round.number);
  const board = createStatusBoardWriter(octokit, {
    round,
    render,
    holding: async () => !(await boardHandedOn()) && (await stop.holding()),
    deps,
    fields,
    ...(previous?.artifacts.statusCommentId === undefined
      ? {}
      : { knownId: previous.artifacts.statusCommentId }),
  });

  try {
    // 1. Stopped while its job was still loading the pull request: nothing was written yet.
    const early = await stop.settled();
    if (early?.kind === "superseded" || early?.kind === "cancelled") {
      await endRound(octokit, round, checkRunId, cancelledClosing(early), store);
      return;
    }
    if (early !== null) return;
    // False when the round already ended (cancelled, or finished by another worker): nothing to do.
    if (!(await store.markRoundRunning(round.id))) return;

    // 2. The check and the board say the round is under way. A check GitHub may have created
    // before a kill (its intent recorded, its id not) is looked for by the round's id first.
    if (checkRunId === undefined) {
      const unrecorded = (await store.publishSteps(round.id))["check-run"] === "intent";
      await store.markPublishStep(round.id, "check-run", "intent");
      checkRunId =
        (unrecorded ? await findOwnCheckRun(octokit, round.repo, round.headSha, round.id) : null) ??
        (await startCheckRun(
          octokit,
          round.repo,
          round.headSha,
          {
            title: "Review in progress",
            summary: `Gadfly round ${round.number} is reviewing \`${round.headSha.slice(0, 7)}\`.`,
          },
          round.id,
        ));
      deps.killPoint?.("after-check-created");
      await store.setArtifacts(round.id, { checkRunId });
      await store.markPublishStep(round.id, "check-run", "done");
    }
    board.update(status);

    // 3. The snapshot, then every model through every lens, then the consensus.
    await mkdir(workspaceDir, { recursive: true });
    const snapshot = await takeSnapshot(
      octokit,
      round.repo,
      round.pullNumber,
      round.headSha,
      workspaceDir,
      { pull: prepared.pull },
    );
    // The team's conventions, from the base (never the head); a file GitHub fails to give is
    // logged and left out: no round fails for its conventions.
    const conventionFiles = await loadConventionFiles(octokit, round.repo, snapshot.baseSha, {
      signal: stop.signal,
      ...(deps.conventionCache === undefined ? {} : { cache: deps.conventionCache }),
      onError: (path, error) =>
        log.warn(
          { ...fields, path, err: describeError(error) },
          "conventions not read from the base; the review goes on without them",
        ),
    });
    // From round 2, the change since the last reviewed head, unless history was rewritten or a
    // full review was asked for; the board says which before any reviewer starts.
    const scope = await readReviewScope(octokit, round.repo, {
      previousHeadSha: previous?.headSha ?? null,
      headSha: round.headSha,
      forceFull: round.trigger.full === true || deps.everyRoundFull === true,
      pullFiles: snapshot.files,
      signal: stop.signal,
      onError: (error) =>
        log.warn(
          { ...fields, err: describeError(error) },
          "the change since the last reviewed head could not be read; reviewing the whole pull request",
        ),
    });
    const scopeStatus = scopeStatusOf(scope, previous?.headSha);
    status = { ...status, scope: scopeStatus };
    board.update(status);
    const saved = await store.challenges(round.id);
    // The metrics count model work once, where it is stored: a resumed round reuses what was.
    const countSpend = (spent: { model: string; usage?: LensReport["usage"] | undefined }) => {
      if (spent.usage === undefined) return;
      deps.metrics?.modelUsage(
        spent.model,
        usageFigures(spent.usage, 0, plan.pricing?.[spent.model]),
      );
    };
    const result = await reviewChange({
      source: {
        title: snapshot.title,
        description: snapshot.description,
        headSha: round.headSha,
        files: snapshot.files,
        workspaceDir,
        alsoNotReviewed: snapshot.notReviewed,
        conventionFiles,
      },
      ...(previous === null
        ? {}
        : {
            previous: {
              headSha: previous.headSha,
              round: previous.round,
              findings: previous.findings,
            },
          }),
      scope,
      plan,
      providers: deps.config.providers,
      lenses: prepared.lenses,
      round: round.number,
      env: deps.env,
      ...(deps.secrets === undefined ? {} : { secrets: deps.secrets }),
      signal: stop.signal,
      limiter: deps.limiter,
      ...(deps.createModel === undefined ? {} : { createModel: deps.createModel }),
      ...(deps.promptStyle === undefined ? {} : { promptStyle: deps.promptStyle }),
      finished: prepared.finished,
      // A resumed round does not ask its cross-examination, nor its re-checks, again.
      finishedChallenges: saved.filter((record) => !record.fingerprint.startsWith(RECHECK_KEY)),
      onChallenge: async (record) => {
        // Cut off by a shutdown (or a lost job): not ended, it is asked again on resume.
        if (record.outcome === "cancelled" && stop.handedOver()) return;
        await store.saveChallenge(round.id, record);
        countSpend(record);
      },
      finishedRechecks: saved
        .filter((record) => record.fingerprint.startsWith(RECHECK_KEY))
        .map((record) => ({
          ...record,
          fingerprint: record.fingerprint.slice(RECHECK_KEY.length),
        })),
      onRecheck: async (record) => {
        if (record.outcome === "cancelled" && stop.handedOver()) return;
        await store.saveChallenge(round.id, {
          ...record,
          fingerprint: `${RECHECK_KEY}${record.fingerprint}`,
        });
        countSpend(record);
      },
      resumed: prepared.resumed,
      skip,
      clock: deps.clock,
      // The daily caps count the installation's other rounds since 00:00 UTC; this round counts
      // its own as it goes.
      dailySpend: async () =>
        roundUsage({
          reports: [],
          challenges: await store.installationSpend(
            round.installationId,
            new Date(Math.floor(deps.clock.now() / DAY_MS) * DAY_MS),
            round.id,
          ),
          ...(plan.pricing === undefined ? {} : { pricing: plan.pricing }),
        }).total,
      onStatus: (next) => {
        // A shutdown aborts lenses only to resume them later: the board keeps showing them
        // running rather than cancelled (and the round as unfinished). After a lost job,
        // the board is another worker's.
        if (stop.handedOver()) return;
        status = { ...next, scope: scopeStatus };
        board.update(status);
      },
      onLensError: (model, lens, error) =>
        log.warn({ ...fields, model, lens, err: error }, "lens failed"),
      onTranscript: (model, lens, messages) =>
        store.saveTranscript(round.id, model, lens, messages),
      onLensReport: async (report) => {
        // A lens cut off by a shutdown (or a lost job) is not finished: it must run again.
        if (report.outcome === "cancelled" && stop.handedOver()) return;
        await store.saveLensReport(round.id, report);
        deps.metrics?.lens(report.outcome);
        countSpend({ model: report.answeredBy ?? report.model, usage: report.usage });
      },
    });
    status = { ...result.status, scope: scopeStatus };

    // 4. Stopped while reviewing: handed over, or ended cancelled.
    const late = await stop.settled();
    if (late?.kind === "shutdown") {
      log.info(fields, "round interrupted by shutdown; it resumes on the next start");
      await board.flush();
      return;
    }
    if (late?.kind === "lost") {
      log.warn(fields, "round taken over by another worker; stopped here");
      return;
    }
    const endStopped = async (
      stopped: Extract<StopReason, { kind: "superseded" | "cancelled" }>,
    ): Promise<void> => {
      const closing = cancelledClosing(stopped);
      board.update({
        ...cancelRemaining(status, closing.reason, deps.clock.now()),
        ...(stopped.kind === "superseded" ? { supersededBy: stopped.by } : {}),
        finished: true,
      });
      await board.flush();
      await endRound(octokit, round, checkRunId, closing, store);
      log.info(fields, stopped.kind === "superseded" ? "round superseded" : "round cancelled");
    };
    if (late?.kind === "superseded" || late?.kind === "cancelled") {
      await endStopped(late);
      return;
    }
    // The last check before publishing: a worker that lost the round posts nothing twice.
    if (!(await stop.holding())) {
      log.warn(fields, "round taken over by another worker; stopped before publishing");
      return;
    }

    // What people said of the findings (reactions, dismissals; learn: repo) shapes what goes out.
    const consensus = await applyFeedback(
      octokit,
      result.consensus,
      { round, learn: plan.learn === "repo" },
      deps,
    );
    // 5. Publish: consensus comment, inline review, check; then the board's last edit.
    // Each step first asks whether the round must stop: a push landing while this round
    // publishes ends it cancelled with nothing more posted.
    try {
      await publishRoundResults(
        octokit,
        {
          round,
          consensus,
          files: result.change.files,
          render,
          checkRunId,
          publish: plan.publish,
          ...(previous?.artifacts.consensusCommentId === undefined
            ? {}
            : { knownConsensusId: previous.artifacts.consensusCommentId }),
        },
        deps,
        {
          beforeStep: async () => {
            const stopped = await stop.current();
            if (stopped !== null) throw new PublishingStopped(stopped);
          },
          reached: (point) => deps.killPoint?.(point),
        },
      );
    } catch (error) {
      if (!(error instanceof PublishingStopped)) throw error;
      const stopped = error.reason;
      if (stopped.kind === "superseded" || stopped.kind === "cancelled") {
        supersededWhilePublishing = stopped.kind === "superseded";
        await endStopped(stopped);
      } else {
        log.warn({ ...fields, stop: stopped.kind }, "round stopped while publishing");
        if (stopped.kind === "shutdown") await board.flush();
      }
      return;
    }
    await board.flush();
    deps.killPoint?.("after-board");
    await store.finishRound(round.id, { state: "completed" });
    log.info(
      { ...fields, verdict: result.consensus.verdict, clusters: result.consensus.clusters.length },
      "round completed",
    );
  } catch (error) {
    if (stop.handedOver()) {
      // Most likely the stop itself: whoever takes the round next runs it again.
      log.warn({ ...fields, err: error }, "round stopped here; it resumes elsewhere");
      return;
    }
    // The board, the check and the store say only the public reason; the log has it all.
    const reason = publicFailureReason(error);
    log.error({ ...fields, err: error }, "round failed");
    board.update({
      ...cancelRemaining(status, "round failed", deps.clock.now()),
      finished: true,
      failure: reason,
    });
    await board.flush().catch(() => false);
    await endRound(
      octokit,
      round,
      checkRunId,
      {
        ending: { state: "failed", failure: reason },
        conclusion: "neutral",
        check: failedCheck(reason),
      },
      store,
    ).catch((endError: unknown) =>
      log.warn({ ...fields, err: describeError(endError) }, "could not end the failed round"),
    );
  } finally {
    await rm(workspaceDir, { recursive: true, force: true }).catch(() => undefined);
  }
}

const DAY_MS = 86_400_000;

/**
 * An incremental round's re-checks are stored with its challenges (one kind of session, one
 * table), their fingerprints under this prefix so neither is mistaken for the other on resume.
 */
const RECHECK_KEY = "recheck:";

/** What the board says of a round's scope: counts and the SHA, not the files. */
function scopeStatusOf(scope: ReviewScope, previousHeadSha: string | undefined): ScopeStatus {
  if (scope.kind === "incremental") {
    return { kind: "incremental", since: scope.since, files: scope.files.length };
  }
  return {
    kind: "full",
    reason: scope.reason,
    ...(previousHeadSha === undefined ? {} : { since: previousHeadSha }),
  };
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
