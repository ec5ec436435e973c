import { mkdir } from "node:fs/promises";
import { roundUsage, usageFigures } from "../../accounting/index.js";
import type { LensReport } from "../../agent/index.js";
import type { ReviewChangeResult, ReviewScope, ScopeStatus } from "../../run/index.js";
import { isHandover, reviewChange } from "../../run/index.js";
import type { PreviousRound } from "../../run/store/index.js";
import { describeError } from "../describe-error.js";
import { loadConventionFiles } from "../load-conventions.js";
import { readReviewScope } from "../read-review-scope.js";
import { takeSnapshot } from "../take-snapshot.js";
import { type RoundRun, showOnBoard } from "./round-run.js";
import { smallStepGate } from "./small-step-gate.js";

const DAY_MS = 86_400_000;

/**
 * An incremental round's re-checks are stored with its challenges (one kind of session, one
 * table), their fingerprints under this prefix so neither is mistaken for the other on resume.
 */
const RECHECK_KEY = "recheck:";

/**
 * The head's snapshot, the base's conventions and the round's scope (the step since the last
 * reviewed head, or the whole pull request and why), then every model through every lens and the
 * consensus: each lens, challenge and re-check saved as it ends, so a resumed round pays for none
 * of them again.
 */
export async function reviewPullRequest(
  run: RoundRun,
  previous: PreviousRound | null,
): Promise<ReviewChangeResult> {
  const { octokit, round, deps, lease } = run;
  await mkdir(run.workspaceDir, { recursive: true });
  const snapshot = await takeSnapshot(
    octokit,
    round.repo,
    round.pullNumber,
    round.headSha,
    run.workspaceDir,
    { pull: run.prepared.pull },
  );
  // The team's conventions, from the base (never the head); a file GitHub fails to give is
  // logged and left out: no round fails for its conventions.
  const conventionFiles = await loadConventionFiles(octokit, round.repo, snapshot.baseSha, {
    signal: lease.signal,
    ...(deps.conventionCache === undefined ? {} : { cache: deps.conventionCache }),
    onError: (path, error) =>
      deps.log.warn(
        { ...run.fields, path, err: describeError(error) },
        "conventions not read from the base; the review goes on without them",
      ),
  });
  // From round 2, what the PR's diff changed since the last reviewed head, unless no baseline
  // holds (history or base rewritten, a lens unfinished there) or a full review was asked for;
  // the board says which before any reviewer starts.
  const { scope, base } = await readReviewScope(octokit, round.repo, {
    previous:
      previous === null
        ? null
        : {
            headSha: previous.headSha,
            base: previous.base,
            unfinishedLenses: previous.unfinishedLenses,
          },
    headSha: round.headSha,
    base: { ref: snapshot.baseRef, sha: snapshot.baseSha },
    forceFull: round.trigger.full === true || deps.everyRoundFull === true,
    pullFiles: snapshot.files,
    signal: lease.signal,
    onError: (error) =>
      deps.log.warn(
        { ...run.fields, err: describeError(error) },
        "the change since the last reviewed head could not be read; reviewing the whole pull request",
      ),
  });
  // What the next round measures its step against; unknown, the next round is full.
  if (base !== null) await deps.store.saveReviewBase(round.id, base);
  const smallStep = scope.kind === "incremental" ? await smallStepGate(run, snapshot.author) : null;
  const scopeStatus = scopeStatusOf(scope, previous?.headSha);
  showOnBoard(run, { ...run.status, scope: scopeStatus });
  const result = await reviewChange({
    source: {
      title: snapshot.title,
      description: snapshot.description,
      headSha: round.headSha,
      files: snapshot.files,
      workspaceDir: run.workspaceDir,
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
    ...(smallStep === null ? {} : { smallStep }),
    ...(await journalOf(run, scopeStatus)),
  });
  run.status = { ...result.status, scope: scopeStatus };
  return result;
}

/**
 * What the round reads of its earlier attempts and writes as it goes: the plan and the process's
 * services, the lenses, challenges and re-checks already ended (not asked again), and the saves
 * of each as it ends. Work cut off by a shutdown or a lost lease is not saved: it is not ended.
 */
async function journalOf(run: RoundRun, scopeStatus: ScopeStatus) {
  const { round, deps, lease, prepared } = run;
  const { store, log } = deps;
  const { plan } = prepared;
  const saved = await store.challenges(round.id);
  const handedOver = () => isHandover(lease.reason());
  // The metrics count model work once, where it is stored: a resumed round reuses what was.
  const countSpend = (spent: { model: string; usage?: LensReport["usage"] | undefined }) => {
    if (spent.usage === undefined) return;
    deps.metrics?.modelUsage(
      spent.model,
      usageFigures(spent.usage, 0, plan.pricing?.[spent.model]),
    );
  };
  return {
    plan,
    providers: deps.config.providers,
    lenses: prepared.lenses,
    round: round.number,
    env: deps.env,
    ...(deps.secrets === undefined ? {} : { secrets: deps.secrets }),
    signal: lease.signal,
    limiter: deps.limiter,
    ...(deps.createModel === undefined ? {} : { createModel: deps.createModel }),
    ...(deps.promptStyle === undefined ? {} : { promptStyle: deps.promptStyle }),
    finished: prepared.finished,
    finishedChallenges: saved.filter((record) => !record.fingerprint.startsWith(RECHECK_KEY)),
    onChallenge: async (record: Parameters<typeof store.saveChallenge>[1]) => {
      if (record.outcome === "cancelled" && handedOver()) return;
      await store.saveChallenge(round.id, record);
      countSpend(record);
    },
    finishedRechecks: saved
      .filter((record) => record.fingerprint.startsWith(RECHECK_KEY))
      .map((record) => ({ ...record, fingerprint: record.fingerprint.slice(RECHECK_KEY.length) })),
    onRecheck: async (record: Parameters<typeof store.saveChallenge>[1]) => {
      if (record.outcome === "cancelled" && handedOver()) return;
      await store.saveChallenge(round.id, {
        ...record,
        fingerprint: `${RECHECK_KEY}${record.fingerprint}`,
      });
      countSpend(record);
    },
    resumed: prepared.resumed,
    skip: run.skip,
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
    onStatus: (next: typeof run.status) => {
      // A shutdown aborts lenses only to resume them later: the board keeps showing them
      // running rather than cancelled. After a lost lease, the board is another worker's.
      if (handedOver()) return;
      showOnBoard(run, { ...next, scope: scopeStatus });
    },
    onLensError: (model: string, lens: string, error: unknown) =>
      log.warn({ ...run.fields, model, lens, err: error }, "lens failed"),
    onTranscript: (
      model: string,
      lens: string,
      messages: Parameters<typeof store.saveTranscript>[3],
    ) => store.saveTranscript(round.id, model, lens, messages),
    onLensReport: async (report: LensReport) => {
      // A lens cut off by a shutdown (or a lost lease) is not finished: it must run again.
      if (report.outcome === "cancelled" && handedOver()) return;
      await store.saveLensReport(round.id, report);
      deps.metrics?.lens(report.outcome);
      countSpend({ model: report.answeredBy ?? report.model, usage: report.usage });
    },
  };
}

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
