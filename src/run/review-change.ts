import { type ChallengeSpend, roundUsage } from "../accounting/index.js";
import type { LensReport, PromptStyle } from "../agent/index.js";
import { Workspace } from "../agent/index.js";
import type { ReviewPlan } from "../config/index.js";
import type { CarriedFinding, Consensus, PreviousFinding } from "../consensus/index.js";
import { buildConsensus } from "../consensus/index.js";
import { createRedactor } from "../llm/index.js";
import { SharedScrubbedCopies } from "../sandbox/index.js";
import { systemClock } from "../time/index.js";
import { applyReviewScope } from "./apply-review-scope.js";
import type { ChangeSet, ReviewScope } from "./change-set.js";
import { checkLockfiles } from "./check-lockfiles.js";
import { codeContext } from "./code-context.js";
import { collectSecrets } from "./collect-secrets.js";
import { challengeResults, runCrossExaminationPhase } from "./cross-examination-phase.js";
import type { ChallengeRecord } from "./cross-examine.js";
import { downshiftPlan } from "./downshift-plan.js";
import { notRechecked } from "./not-rechecked.js";
import { planCarry } from "./plan-carry.js";
import { type ChangeSetSource, prepareChangeSet } from "./prepare-change-set.js";
import { readFileEvidence } from "./read-file-evidence.js";
import { recheckFindings, recheckSessionLens } from "./recheck-findings.js";
import { reviewRound } from "./review-round.js";
import type { LightStep, RoundRequest, RoundSubject } from "./round-request.js";
import type { RoundStatus } from "./round-status.js";
import { sessionModelFor } from "./session-model-for.js";
import { emptyStepNote, type SmallStepGate, smallStepPlan } from "./small-step-plan.js";
import { runSummaryPhase, type SummaryRecord } from "./summary-phase.js";

/** The change a round is asked to review, before its globs and budget are applied. */
export interface ChangeToReview {
  /**
   * The change as read from GitHub or from git (with the convention files of its base); the
   * ignore globs, the diff budget and the instructions come from the plan.
   */
  source: Omit<ChangeSetSource, "ignore" | "diffBudgetChars" | "instructions">;
  /** The pull request's last completed round: findings are then compared (fixed, still open, new). */
  previous?: PreviousRoundFindings | undefined;
  /**
   * What the reviewers review (absent: the whole change). Incremental: the step since
   * `previous.headSha` is the change under review, and the previous findings nobody reports
   * again are carried or re-checked instead of shown as fixed.
   */
  scope?: ReviewScope | undefined;
  /** Default compact; full-diff is the economy benchmark's baseline, not a user setting. */
  promptStyle?: PromptStyle | undefined;
  /** Whether a small step may run fewer models per lens, and its reviewers' seed; absent: never. */
  smallStep?: SmallStepGate | undefined;
}

export interface PreviousRoundFindings {
  headSha: string;
  round: number;
  findings: PreviousFinding[];
}

export interface ReviewChangeResult {
  /** What the reviewers were given, and what they were not (`notReviewed`). */
  change: ChangeSet;
  /** Every lens report, in config order (done, failed, skipped or cancelled). */
  reports: LensReport[];
  status: RoundStatus;
  consensus: Consensus;
  /** The round's cross-examination, every challenge asked (none when it is off). */
  challenges: ChallengeRecord[];
  /** An incremental round's re-checks of earlier findings whose lines the push touched. */
  rechecks: ChallengeRecord[];
  /** The round's summary of the change, or why there is none; null when the plan has it off. */
  summary: SummaryRecord | null;
}

/**
 * The review pipeline both the app and the CLI run once they hold a plan and a
 * change: the change set (ignore globs, diff budget), every model through every
 * lens, then the consensus across models. Knows nothing of GitHub or a terminal;
 * publishing is the caller's.
 */
export async function reviewChange(
  request: RoundRequest<ChangeToReview>,
): Promise<ReviewChangeResult> {
  if (request.runtime.sharedCopies !== undefined) return await reviewChangeWith(request);
  // The round's one scrubbed copy for agent CLIs is made when the first agent run asks, and
  // deleted here when the round ends, finished, failed or aborted.
  const sharedCopies = new SharedScrubbedCopies();
  try {
    return await reviewChangeWith({ ...request, runtime: { ...request.runtime, sharedCopies } });
  } finally {
    await sharedCopies.close();
  }
}

async function reviewChangeWith(
  request: RoundRequest<ChangeToReview>,
): Promise<ReviewChangeResult> {
  const { runtime, journal } = request;
  const { source, previous, smallStep } = request.change;
  const change = await changeUnderReview(request.change, request.subject.plan);
  // Above the operator's size, the round runs the downshift's lenses and models only: the rest
  // of the round (cross-examination, consensus) knows only the plan it ran.
  const downshift = downshiftPlan(request.subject.plan, change);
  const plan = downshift.plan;
  // An incremental step with nothing reviewable runs no lens; a small one, a few models per lens.
  const step = smallStepPlan(plan, change, smallStep, request.subject.skip);
  const subject: RoundSubject = {
    ...request.subject,
    plan,
    downshift: downshift.note ?? undefined,
    downshiftBy: downshift.by.length === 0 ? undefined : downshift.by.join(", "),
    step: roundStep(step, previous, change),
  };
  const reviewed = await reviewRound({ subject, change, runtime, journal });
  const { reports } = reviewed;
  // A cap reached during the lenses also keeps the cross-examination from starting.
  const reached = reviewed.status.budget?.reached !== undefined;
  const examined = await runCrossExaminationPhase(
    { subject: reached ? withoutCrossExamination(subject) : subject, change, runtime, journal },
    { reports, status: reviewed.status },
  );
  const { records } = examined;
  // After the lenses, so it is written by a model that completed one, and not before a cap
  // they reached: a summary never costs what the budget refused the reviewers.
  const summary = await runSummaryPhase(
    { subject, change, runtime, journal },
    { reports, sessions: records, reached: examined.status.budget?.reached ?? null },
  );
  if (summary !== null && summary.model !== null) await journal?.onSummary?.(summary);
  const consensusOf = consensusBuilder(plan, step.kind === "whole", reports, {
    round: subject.round,
    previous,
    challenges: challengeResults(records),
  });
  const compared = await compareWithPrevious({ subject, change, runtime, journal }, previous, {
    reports,
    consensusOf,
  });
  const status =
    step.kind === "empty" && compared.carried !== null
      ? // The board said what was planned; the re-checks may have let some go.
        withStepNote(examined.status, emptyStepNote(step.since, compared.carried))
      : examined.status;
  return {
    change,
    reports,
    status,
    consensus: withSummary(
      withCoverage(
        compared.consensus,
        change,
        source,
        reports,
        [...records, ...compared.rechecks, ...summarySpend(summary)],
        status,
        plan,
      ),
      summary,
    ),
    challenges: records,
    rechecks: compared.rechecks,
    summary,
  };
}

/** The subject with its cross-examination off (a cap was reached during the lenses). */
function withoutCrossExamination(subject: RoundSubject): RoundSubject {
  const { crossExamination } = subject.plan;
  if (crossExamination === undefined) return subject;
  return {
    ...subject,
    plan: { ...subject.plan, crossExamination: { ...crossExamination, enabled: false } },
  };
}

/** Builds the round's consensus, with the findings carried from the last round when given. */
function consensusBuilder(
  plan: ReviewPlan,
  whole: boolean,
  reports: readonly LensReport[],
  round: {
    round: number;
    previous: PreviousRoundFindings | undefined;
    challenges: ReturnType<typeof challengeResults>;
  },
): (carry?: CarriedFinding[]) => Consensus {
  // A light step's consensus details the models that had a lens in it, not the others as failed.
  const modelOrder = plan.models
    .map((model) => model.id)
    .filter((id) => whole || reports.some((report) => report.model === id));
  return (carry) =>
    buildConsensus({
      reports,
      modelOrder,
      lensOrder: plan.lenses,
      providers: Object.fromEntries(plan.models.map((model) => [model.id, model.provider])),
      round: round.round,
      ...(round.previous === undefined ? {} : { previous: round.previous }),
      challenges: round.challenges,
      ...(carry === undefined ? {} : { carry }),
    });
}

/** The change set the reviewers get: evidence read, globs and budget applied, narrowed to the step. */
async function changeUnderReview(given: ChangeToReview, plan: ReviewPlan): Promise<ChangeSet> {
  const { source, scope, promptStyle } = given;
  const evidence =
    source.evidence ??
    (await readFileEvidence(source.workspaceDir, source.files, source.attributes ?? null));
  const prepared = prepareChangeSet({
    ...source,
    evidence,
    diffBudgetChars: plan.review.diffBudgetChars,
    promptStyle,
    ignore: plan.ignore,
    instructions: plan.instructions,
  });
  return scope === undefined
    ? prepared
    : applyReviewScope(prepared, scope, plan.review.diffBudgetChars);
}

/** What reviewRound is told of a light step: its reviewers and its note (none for a whole round). */
function roundStep(
  step: ReturnType<typeof smallStepPlan>,
  previous: PreviousRoundFindings | undefined,
  change: ChangeSet,
): LightStep | undefined {
  if (step.kind === "whole") return undefined;
  if (step.kind === "small") return { note: step.note, empty: false, assignment: step.assignment };
  const note = emptyStepNote(step.since, plannedCarry(previous, change));
  return { note, empty: true, assignment: new Map() };
}

/**
 * The consensus against the last round: in a full round a finding whose reporter did not finish
 * its lens here is not fixed by its silence; in an incremental one what nobody reported again is
 * carried or re-checked. `carried` is how many were carried (null: not an incremental round).
 */
async function compareWithPrevious(
  // The round with the plan it ran (a downshift's, if any).
  request: RoundRequest<ChangeSet>,
  previous: PreviousRoundFindings | undefined,
  round: {
    reports: readonly LensReport[];
    consensusOf: (carry?: CarriedFinding[]) => Consensus;
  },
): Promise<{ consensus: Consensus; rechecks: ChallengeRecord[]; carried: number | null }> {
  const { change } = request;
  const { reports, consensusOf } = round;
  const consensus = consensusOf();
  const unreported = consensus.comparison?.fixed ?? [];
  if (previous === undefined) return { consensus, rechecks: [], carried: null };
  if (change.scope?.kind !== "incremental") {
    // A finding whose reporter did not finish its lens here is not fixed by its silence, nor is
    // one whose code is still there, unchanged, at its lines: its place did not change.
    const notAsked = notRechecked(unreported, reports, true);
    const asked = new Set(notAsked.map((entry) => entry.fingerprint));
    const kept = [
      ...notAsked,
      ...(await unchangedPlaces(
        change,
        unreported.filter((finding) => !asked.has(finding.fingerprint)),
      )),
    ];
    return {
      consensus: kept.length > 0 ? consensusOf(kept) : consensus,
      rechecks: [],
      carried: null,
    };
  }
  if (request.runtime.signal.aborted) return { consensus, rechecks: [], carried: null };
  // Only what nobody reported again needs carrying: the rest is still open by matching.
  const carried = await carryUnreported(request, unreported, reports);
  return {
    consensus: carried.carry.length > 0 ? consensusOf(carried.carry) : consensus,
    rechecks: carried.records,
    carried: carried.carry.length,
  };
}

/**
 * The findings whose code is still at their lines at this head, as it was when they were
 * published (the normalized code's hash): nobody reporting them again is no evidence of a fix
 * when nothing there changed. Kept open, said to be not confirmed fixed.
 */
async function unchangedPlaces(
  change: ChangeSet,
  findings: readonly PreviousFinding[],
): Promise<CarriedFinding[]> {
  // A file the PR moved: its finding is looked for at the new path, where a move keeps its lines.
  const movedTo = new Map(
    change.files
      .filter((file) => file.oldPath !== null && file.oldPath !== file.path)
      .map((file) => [file.oldPath as string, file.path]),
  );
  const kept: CarriedFinding[] = [];
  for (const finding of findings) {
    const stored = finding.detail?.context;
    if (stored === undefined) continue;
    const endLine = Math.max(finding.line, finding.detail?.endLine ?? finding.line);
    const moved = movedTo.get(finding.file);
    const path = moved ?? finding.file;
    const now = await codeContext(change.workspaceDir, path, finding.line, endLine);
    if (now === stored) {
      kept.push({
        fingerprint: finding.fingerprint,
        ...(moved === undefined ? {} : { file: moved }),
        line: finding.line,
        endLine,
        recheck: "unsure",
      });
    }
  }
  return kept;
}

function withStepNote(status: RoundStatus, note: string): RoundStatus {
  return { ...status, budget: { ...status.budget, step: note, stepEmpty: true } };
}

/** The consensus as published: the files not reviewed, the lockfile check, the bill, the budget. */
function withCoverage(
  consensus: Consensus,
  change: ChangeSet,
  source: ChangeToReview["source"],
  reports: readonly LensReport[],
  sessions: readonly ChallengeSpend[],
  status: RoundStatus,
  plan: ReviewPlan,
): Consensus {
  // No model reads a lockfile: what it fetches and runs is listed by a check of its own.
  const lockfiles = checkLockfiles(source.files);
  return {
    ...consensus,
    ...(change.notReviewed.length === 0 ? {} : { notReviewed: change.notReviewed }),
    ...(lockfiles === null ? {} : { lockfiles }),
    // Re-checks are model sessions too: the bill counts them with the challenges.
    usage: roundUsage({ reports, challenges: sessions, pricing: plan.pricing }),
    ...(status.budget === undefined ? {} : { budget: status.budget }),
  };
}

/** The summary's spend, counted in the round's usage as its own phase. */
function summarySpend(summary: SummaryRecord | null): ChallengeSpend[] {
  if (summary === null || summary.model === null) return [];
  return [
    {
      model: summary.model,
      usage: summary.usage,
      durationMs: summary.durationMs,
      phase: "summary",
    },
  ];
}

/** The consensus with the summary, or the reason it is unavailable (nothing when it is off). */
function withSummary(consensus: Consensus, summary: SummaryRecord | null): Consensus {
  if (summary === null) return consensus;
  return {
    ...consensus,
    summary:
      summary.outcome === "written"
        ? { state: "written", model: summary.model, ...summary.summary }
        : { state: "unavailable", model: summary.model, reason: summary.reason },
  };
}

/** How many open findings an empty step carries, or re-checks, before anything runs. */
function plannedCarry(previous: PreviousRoundFindings | undefined, change: ChangeSet): number {
  if (previous === undefined || change.scope?.kind !== "incremental") return 0;
  const pullPaths = new Set(change.files.map((file) => file.path));
  const plan = planCarry(previous.findings, change.scope, pullPaths);
  return plan.carry.length + plan.recheck.length;
}

/** The carry plan of an incremental round, with the re-checks of the findings the push touched. */
async function carryUnreported(
  request: RoundRequest<ChangeSet>,
  unreported: readonly PreviousFinding[],
  reports: readonly LensReport[],
): Promise<{ carry: CarriedFinding[]; records: ChallengeRecord[] }> {
  const { subject, change, runtime } = request;
  if (change.scope?.kind !== "incremental") return { carry: [], records: [] };
  const pullPaths = new Set(change.files.map((file) => file.path));
  const planned = planCarry(unreported, change.scope, pullPaths);
  // A touched finding whose reporter did not finish its lens here is kept, not asked.
  const untold = new Set(
    notRechecked(
      planned.recheck.map((entry) => entry.finding),
      reports,
      false,
    ).map((entry) => entry.fingerprint),
  );
  const kept: CarriedFinding[] = planned.recheck
    .filter((entry) => untold.has(entry.finding.fingerprint))
    .map(({ finding, file, line, endLine }) => ({
      fingerprint: finding.fingerprint,
      ...(file === undefined ? {} : { file }),
      line,
      endLine,
      recheck: "not-rechecked",
    }));
  const plan = {
    carry: [...planned.carry, ...kept],
    recheck: planned.recheck.filter((entry) => !untold.has(entry.finding.fingerprint)),
  };
  const settings = subject.plan.crossExamination;
  const rechecked = await recheckFindings(
    {
      findings: plan.recheck,
      models: subject.plan.models.map((model) => model.id),
      maxRechecks: settings?.maxChallenges ?? 10,
    },
    {
      modelFor: sessionModelFor(subject, runtime, recheckSessionLens),
      workspace: await Workspace.open(change.workspaceDir, { sharedCopies: runtime.sharedCopies }),
      settings: {
        maxTurns: settings?.maxTurns ?? 4,
        timeoutSeconds: settings?.timeoutSeconds ?? 180,
      },
      limiter: runtime.limiter,
      signal: runtime.signal,
      clock: runtime.clock ?? systemClock,
      // A re-check's reason is model text: redacted like every other before anything keeps it.
      cleanReason: createRedactor(
        runtime.secrets ?? collectSecrets({ env: runtime.env, providers: subject.providers }),
      ),
    },
    request.journal?.rechecks,
  );
  return { carry: [...plan.carry, ...rechecked.carried], records: rechecked.records };
}
