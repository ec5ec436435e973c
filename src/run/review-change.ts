import { roundUsage } from "../accounting/index.js";
import type { LensReport, PromptStyle } from "../agent/index.js";
import { Workspace } from "../agent/index.js";
import type { CarriedFinding, Consensus, PreviousFinding } from "../consensus/index.js";
import { buildConsensus } from "../consensus/index.js";
import { createRedactor } from "../llm/index.js";
import { SharedScrubbedCopies } from "../sandbox/index.js";
import { systemClock } from "../time/index.js";
import { applyReviewScope } from "./apply-review-scope.js";
import type { ChangeSet, ReviewScope } from "./change-set.js";
import { checkLockfiles } from "./check-lockfiles.js";
import { collectSecrets } from "./collect-secrets.js";
import { challengeResults, runCrossExaminationPhase } from "./cross-examination-phase.js";
import type { ChallengeRecord } from "./cross-examine.js";
import { downshiftPlan } from "./downshift-plan.js";
import { planCarry } from "./plan-carry.js";
import { type ChangeSetSource, prepareChangeSet } from "./prepare-change-set.js";
import { readFileEvidence } from "./read-file-evidence.js";
import { type RecheckOptions, recheckFindings, recheckSessionLens } from "./recheck-findings.js";
import { type ReviewRoundOptions, reviewRound } from "./review-round.js";
import type { RoundStatus } from "./round-status.js";
import { sessionModelFor } from "./session-model-for.js";
import { emptyStepNote, smallStepPlan } from "./small-step-plan.js";

export interface ReviewChangeOptions extends Omit<ReviewRoundOptions, "change"> {
  /**
   * The change as read from GitHub or from git (with the convention files of its base); the
   * ignore globs, the diff budget and the instructions come from the plan.
   */
  source: Omit<ChangeSetSource, "ignore" | "diffBudgetChars" | "instructions">;
  /** The pull request's last completed round: findings are then compared (fixed, still open, new). */
  previous?: { headSha: string; round: number; findings: PreviousFinding[] };
  /**
   * What the reviewers review (absent: the whole change). Incremental: the step since
   * `previous.headSha` is the change under review, and the previous findings nobody reports
   * again are carried or re-checked instead of shown as fixed.
   */
  scope?: ReviewScope;
  /** Cross-examination challenges that ended before a restart: not asked again. */
  finishedChallenges?: readonly ChallengeRecord[];
  /** Called as each challenge ends (to persist it) before the round goes on. */
  onChallenge?: (record: ChallengeRecord) => Promise<void>;
  /** An incremental round's re-checks that ended before a restart: not asked again. */
  finishedRechecks?: readonly ChallengeRecord[];
  /** Called as each re-check ends (to persist it) before the round goes on. */
  onRecheck?: (record: ChallengeRecord) => Promise<void>;
  /** Default compact; full-diff is the economy benchmark's baseline, not a user setting. */
  promptStyle?: PromptStyle;
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
}

/**
 * The review pipeline both the app and the CLI run once they hold a plan and a
 * change: the change set (ignore globs, diff budget), every model through every
 * lens, then the consensus across models. Knows nothing of GitHub or a terminal;
 * publishing is the caller's.
 */
export async function reviewChange(options: ReviewChangeOptions): Promise<ReviewChangeResult> {
  if (options.sharedCopies !== undefined) return await reviewChangeWith(options);
  // The round's one scrubbed copy for agent CLIs is made when the first agent run asks, and
  // deleted here when the round ends, finished, failed or aborted.
  const sharedCopies = new SharedScrubbedCopies();
  try {
    return await reviewChangeWith({ ...options, sharedCopies });
  } finally {
    await sharedCopies.close();
  }
}

async function reviewChangeWith(options: ReviewChangeOptions): Promise<ReviewChangeResult> {
  const {
    source,
    previous,
    scope,
    finishedChallenges,
    onChallenge,
    finishedRechecks,
    onRecheck,
    promptStyle,
    ...rest
  } = options;
  const evidence =
    source.evidence ??
    (await readFileEvidence(source.workspaceDir, source.files, source.attributes ?? null));
  const prepared = prepareChangeSet({
    ...source,
    evidence,
    diffBudgetChars: options.plan.review.diffBudgetChars,
    ...(promptStyle === undefined ? {} : { promptStyle }),
    ignore: options.plan.ignore,
    instructions: options.plan.instructions,
  });
  const change =
    scope === undefined
      ? prepared
      : applyReviewScope(prepared, scope, options.plan.review.diffBudgetChars);
  // Above the operator's size, the round runs the downshift's lenses and models only: the rest
  // of the round (cross-examination, consensus) knows only the plan it ran.
  const downshift = downshiftPlan(options.plan, change);
  const plan = downshift.plan;
  rest.plan = plan;
  // An incremental step with nothing reviewable runs no lens; a small one, a few models per lens.
  const step = smallStepPlan(plan, change, options.round, rest.skip);
  const reviewed = await reviewRound({
    ...rest,
    change,
    ...(downshift.note === null ? {} : { downshift: downshift.note }),
    ...(step.kind === "whole"
      ? {}
      : {
          step:
            step.kind === "small"
              ? { note: step.note, empty: false, assignment: step.assignment }
              : {
                  note: emptyStepNote(step.since, plannedCarry(previous, change)),
                  empty: true,
                  assignment: new Map(),
                },
        }),
  });
  const { reports } = reviewed;
  // A cap reached during the lenses also keeps the cross-examination from starting.
  const reached = reviewed.status.budget?.reached !== undefined;
  const examined = await runCrossExaminationPhase({
    ...rest,
    ...(reached && plan.crossExamination !== undefined
      ? { plan: { ...plan, crossExamination: { ...plan.crossExamination, enabled: false } } }
      : {}),
    change,
    reports,
    status: reviewed.status,
    ...(finishedChallenges === undefined ? {} : { finishedChallenges }),
    ...(onChallenge === undefined ? {} : { onChallenge }),
  });
  const { records } = examined;
  let { status } = examined;
  // A light step's consensus details the models that had a lens in it, not the others as failed.
  const modelOrder = plan.models
    .map((model) => model.id)
    .filter((id) => step.kind === "whole" || reports.some((report) => report.model === id));
  const consensusOf = (carry?: CarriedFinding[]) =>
    buildConsensus({
      reports,
      modelOrder,
      lensOrder: plan.lenses,
      providers: Object.fromEntries(plan.models.map((model) => [model.id, model.provider])),
      round: options.round,
      ...(previous === undefined ? {} : { previous }),
      challenges: challengeResults(records),
      ...(carry === undefined ? {} : { carry }),
    });
  let consensus = consensusOf();
  let rechecks: ChallengeRecord[] = [];
  if (previous !== undefined && change.scope?.kind === "incremental" && !rest.signal.aborted) {
    // Only what nobody reported again needs carrying: the rest is still open by matching.
    const carried = await carryUnreported(rest, change, consensus.comparison?.fixed ?? [], {
      ...(finishedRechecks === undefined ? {} : { finished: finishedRechecks }),
      ...(onRecheck === undefined ? {} : { onRecheck }),
    });
    rechecks = carried.records;
    if (carried.carry.length > 0) consensus = consensusOf(carried.carry);
    if (step.kind === "empty") {
      // The board said what was planned; the re-checks may have let some go.
      const note = emptyStepNote(step.since, carried.carry.length);
      status = { ...status, budget: { ...status.budget, step: note, stepEmpty: true } };
    }
  }
  // No model reads a lockfile: what it fetches and runs is listed by a check of its own.
  const lockfiles = checkLockfiles(source.files);
  // Re-checks are model sessions too: the bill counts them with the challenges.
  const usage = roundUsage({
    reports,
    challenges: [...records, ...rechecks],
    pricing: plan.pricing,
  });
  return {
    change,
    reports,
    status,
    consensus: {
      ...consensus,
      ...(change.notReviewed.length === 0 ? {} : { notReviewed: change.notReviewed }),
      ...(lockfiles === null ? {} : { lockfiles }),
      usage,
      ...(status.budget === undefined ? {} : { budget: status.budget }),
    },
    challenges: records,
    rechecks,
  };
}

/** How many open findings an empty step carries, or re-checks, before anything runs. */
function plannedCarry(previous: ReviewChangeOptions["previous"], change: ChangeSet): number {
  if (previous === undefined || change.scope?.kind !== "incremental") return 0;
  const pullPaths = new Set(change.files.map((file) => file.path));
  const plan = planCarry(previous.findings, change.scope, pullPaths);
  return plan.carry.length + plan.recheck.length;
}

/** The carry plan of an incremental round, with the re-checks of the findings the push touched. */
async function carryUnreported(
  options: Omit<ReviewChangeOptions, "source" | "previous" | "scope">,
  change: ChangeSet,
  unreported: readonly PreviousFinding[],
  persisted: Pick<RecheckOptions, "finished" | "onRecheck">,
): Promise<{ carry: CarriedFinding[]; records: ChallengeRecord[] }> {
  if (change.scope?.kind !== "incremental") return { carry: [], records: [] };
  const pullPaths = new Set(change.files.map((file) => file.path));
  const plan = planCarry(unreported, change.scope, pullPaths);
  const settings = options.plan.crossExamination;
  const rechecked = await recheckFindings({
    findings: plan.recheck,
    models: options.plan.models.map((model) => model.id),
    modelFor: sessionModelFor(options, recheckSessionLens),
    workspace: await Workspace.open(change.workspaceDir, { sharedCopies: options.sharedCopies }),
    settings: {
      maxTurns: settings?.maxTurns ?? 4,
      timeoutSeconds: settings?.timeoutSeconds ?? 180,
      maxRechecks: settings?.maxChallenges ?? 10,
    },
    limiter: options.limiter,
    signal: options.signal,
    clock: options.clock ?? systemClock,
    // A re-check's reason is model text: redacted like every other before anything keeps it.
    cleanReason: createRedactor(
      options.secrets ?? collectSecrets({ env: options.env, providers: options.providers }),
    ),
    ...persisted,
  });
  return { carry: [...plan.carry, ...rechecked.carried], records: rechecked.records };
}
