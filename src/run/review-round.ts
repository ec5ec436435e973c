import type { ChangedFiles, LensDefinition, LensEvent, LensReport } from "../agent/index.js";
import {
  publicCancelReason,
  publicFailureReason,
  type reviewLens,
  Workspace,
} from "../agent/index.js";
import type { ModelConfig, ProviderConfig } from "../config/index.js";
import { createRedactor, memoizeRedactor, type Redactor } from "../llm/index.js";
import { type Clock, systemClock } from "../time/index.js";
import type { ChangeSet } from "./change-set.js";
import { collectSecrets } from "./collect-secrets.js";
import { redactReport } from "./redact-report.js";
import { failedReport, reviewLensChain } from "./review-lens-chain.js";
import { RoundBoard } from "./round-board.js";
import { RoundBudgetGate, skippedReport } from "./round-budget-gate.js";
import type { RoundJournal, RoundRequest, RoundRuntime, RoundSubject } from "./round-request.js";
import type { RoundStatus } from "./round-status.js";
import { settleAll } from "./settle-all.js";
import { initialRoundStatus } from "./track-round-status.js";

export interface ReviewRoundResult {
  /** In config order: models, then lenses. */
  reports: LensReport[];
  status: RoundStatus;
}

/**
 * The core of a review round, knowing nothing of GitHub: fans models × lenses
 * out under the global limiter, folds their events into the status board's
 * state, and returns every lens report (done, failed or cancelled — never a
 * silent gap).
 */
export async function reviewRound(given: RoundRequest<ChangeSet>): Promise<ReviewRoundResult> {
  // A lens whose report cannot be saved fails the round: the other lenses are stopped with it
  // (the round's own signal), and the round does not return before every lens has settled, so
  // nothing of it calls a model after its end.
  const failed = new AbortController();
  const runtime = {
    ...given.runtime,
    signal: AbortSignal.any([given.runtime.signal, failed.signal]),
  };
  const { subject, change } = given;
  const journal = given.journal ?? {};
  const clock = runtime.clock ?? systemClock;
  const { plan } = subject;
  const finished = new Map(
    (journal.lenses?.finished ?? []).map((report) => [lensKey(report), report]),
  );
  const lensesOf = lensesOfModel(subject);
  const secrets =
    runtime.secrets ?? collectSecrets({ env: runtime.env, providers: subject.providers });
  // One for the round: every lens's transcript repeats the same opening (the diff summary) and
  // file reads, redacted once here instead of once per lens and session.
  const redact = memoizeRedactor(createRedactor(secrets));
  const board = new RoundBoard(
    initialStatus(subject, change, journal, lensesOf, clock),
    plan,
    clock,
    redact,
    journal.onStatus,
  );
  // Lenses that will not run are folded in before the first publish: a board never shows
  // a skipped model queued, nor a resumed lens that already ended.
  const skipped = skippedLenses(subject, lensesOf, finished);
  for (const report of [...finished.values(), ...skipped.values()]) board.foldEnded(report);
  board.publish();
  const gate = new RoundBudgetGate(plan, board, runtime.dailySpend, runtime.readerShare);
  if (gate.restore(finished.values())) board.publish();

  const round: RoundContext = {
    subject,
    runtime,
    journal,
    clock,
    redact,
    secrets,
    board,
    gate,
    finished,
    skipped,
    providers: new Map(subject.providers.map((provider) => [provider.name, provider])),
    lensById: new Map(subject.lenses.map((lens) => [lens.id, lens])),
    workspace: await Workspace.open(change.workspaceDir, { sharedCopies: runtime.sharedCopies }),
    prompt: lensPrompt(change),
  };
  // Interleave models (lens-major order) so one slow provider does not hold every slot.
  const jobs = plan.lenses.flatMap((lensId) =>
    plan.models
      .filter((model) => lensesOf(model.id).includes(lensId))
      .map((model) => ({ model, lensId })),
  );
  const settled = await settleAll(
    jobs,
    (job) => reviewOneLens(round, job.model, job.lensId),
    failed,
  );
  const reports = plan.models.flatMap((model) =>
    plan.lenses.flatMap((lensId) =>
      settled.filter((report) => report.model === model.id && report.lens === lensId),
    ),
  );
  return { reports, status: board.finish() };
}

/** What every lens of one round shares. */
interface RoundContext {
  subject: RoundSubject;
  runtime: RoundRuntime;
  journal: RoundJournal;
  clock: Clock;
  redact: Redactor;
  secrets: readonly string[];
  board: RoundBoard;
  gate: RoundBudgetGate;
  /** Ended before a restart: reused, their models not called again. */
  finished: ReadonlyMap<string, LensReport>;
  /** Kept from the change (a fork's models): skipped without a slot. */
  skipped: ReadonlyMap<string, LensReport>;
  providers: ReadonlyMap<string, ProviderConfig>;
  lensById: ReadonlyMap<string, LensDefinition>;
  workspace: Workspace;
  prompt: Parameters<typeof reviewLens>[0]["prompt"];
}

/** One (model, lens): reused, skipped, or run under the limiter; its report saved before it returns. */
async function reviewOneLens(
  round: RoundContext,
  model: ModelConfig,
  lensId: string,
): Promise<LensReport> {
  const { runtime, journal, board } = round;
  const previous = round.finished.get(lensKey({ model: model.id, lens: lensId }));
  if (previous !== undefined) return previous;
  const skip = round.skipped.get(lensKey({ model: model.id, lens: lensId }));
  if (skip !== undefined) {
    // Decided before the limiter: a skipped lens takes no slot and starts nothing.
    await journal.lenses?.onEnded?.(skip);
    return skip;
  }
  const failed = (error: unknown): LensReport => {
    if (!runtime.signal.aborted) journal.onLensError?.(model.id, lensId, error);
    return cancelledOrFailed(model, lensId, error, runtime.signal);
  };
  // The lens's spend is counted before its slot is freed, so the lens that takes the slot
  // next is checked against it.
  const settle = (raw: LensReport): LensReport => {
    const report = redactReport(raw, round.secrets);
    board.countUsage(report);
    return report;
  };
  const run = async (): Promise<LensReport> =>
    settle(
      (await round.gate.skipIfReached(model, lensId)) ??
        (await runOne({
          model,
          lensId,
          provider: round.providers.get(model.provider),
          providers: round.providers,
          lens: round.lensById.get(lensId),
          subject: round.subject,
          runtime,
          journal,
          workspace: round.workspace,
          prompt: round.prompt,
          onEvent: board.event,
          clock: round.clock,
          redact: round.redact,
        }).catch(failed)),
    );
  const report = await runtime.limiter
    .run(run, runtime.signal)
    // Not started: the round was stopped while the lens waited for its slot.
    .catch((error: unknown) => settle(failed(error)));
  board.lensEnded(report);
  await journal.lenses?.onEnded?.(report);
  return report;
}

function lensKey(report: { model: string; lens: string }): string {
  return `${report.model}\u0000${report.lens}`;
}

/** The lenses a model reviews: all, or a light step's assignment (a kept model keeps them all). */
function lensesOfModel(subject: RoundSubject): (model: string) => string[] {
  const { plan, step, skip } = subject;
  return (model) => {
    // A model kept from the change keeps its skipped lenses on the board, whatever the step.
    if (step === undefined || skip?.has(model) === true) return plan.lenses;
    return plan.lenses.filter((lens) => step.assignment.get(lens)?.includes(model) === true);
  };
}

function initialStatus(
  subject: RoundSubject,
  change: ChangeSet,
  journal: RoundJournal,
  lensesOf: (model: string) => string[],
  clock: Clock,
): RoundStatus {
  const { plan, step, downshift, downshiftBy } = subject;
  const status = initialRoundStatus(
    {
      headSha: change.headSha,
      round: subject.round,
      // A light step's board lists the models it gave a lens, not the others as done.
      reviewers: plan.models
        .map((model) => ({ model: model.id, provider: model.provider, lenses: lensesOf(model.id) }))
        .filter((reviewer) => step === undefined || reviewer.lenses.length > 0),
      notReviewed: change.notReviewed,
      ...(journal.resumed === true ? { resumed: true } : {}),
    },
    clock.now(),
  );
  if (downshift === undefined && step === undefined) return status;
  return {
    ...status,
    budget: {
      ...(downshift === undefined
        ? {}
        : { downshift, downshiftBy: downshiftBy ?? "budget.downshift" }),
      ...(step === undefined
        ? {}
        : { step: step.note, ...(step.empty ? { stepEmpty: true } : {}) }),
    },
  };
}

/** Each kept model's lenses, skipped with the reason it was kept (none already finished). */
function skippedLenses(
  subject: RoundSubject,
  lensesOf: (model: string) => string[],
  finished: ReadonlyMap<string, LensReport>,
): Map<string, LensReport> {
  const skipped = new Map<string, LensReport>();
  for (const model of subject.plan.models) {
    const reason = subject.skip?.get(model.id);
    if (reason === undefined) continue;
    for (const lens of lensesOf(model.id)) {
      const key = lensKey({ model: model.id, lens });
      if (!finished.has(key)) skipped.set(key, skippedReport(model, lens, reason));
    }
  }
  return skipped;
}

function lensPrompt(change: ChangeSet): Parameters<typeof reviewLens>[0]["prompt"] {
  return {
    title: change.title,
    description: change.description,
    diff: change.packedDiff,
    changedFiles: change.listing ?? change.files.map((file) => file.path),
    changedFileCount: change.files.length,
    conventions: change.conventions ?? [],
    style: change.promptStyle ?? "compact",
    changes: changedFiles(change),
    // Ours, trusted: e.g. that the diff is only the change since the last reviewed head.
    ...(change.diffNote === undefined ? {} : { diffNote: change.diffNote }),
  };
}

interface RunOneInput {
  model: ModelConfig;
  lensId: string;
  provider: ProviderConfig | undefined;
  /** Every provider by name: a fallback may be another's. */
  providers: ReadonlyMap<string, ProviderConfig>;
  lens: LensDefinition | undefined;
  subject: RoundSubject;
  runtime: RoundRuntime;
  journal: RoundJournal;
  workspace: Workspace;
  prompt: Parameters<typeof reviewLens>[0]["prompt"];
  onEvent: (event: LensEvent) => void;
  clock: Clock;
  /** The round's redactor, for the lens's transcript. */
  redact: Redactor;
}

async function runOne(input: RunOneInput): Promise<LensReport> {
  const { model, lensId } = input;
  if (input.provider === undefined)
    return failedReport(model, lensId, `unknown provider ${model.provider}`);
  if (input.lens === undefined) return failedReport(model, lensId, `unknown lens ${lensId}`);
  return reviewLensChain({
    ...input,
    lens: input.lens,
    fallbacks: fallbacksOf(model, input.subject),
  });
}

/** `model`'s fallbacks the round may use: known to the plan and not kept from this change. */
function fallbacksOf(model: ModelConfig, subject: RoundSubject): ModelConfig[] {
  const known = new Map(
    [...subject.plan.models, ...(subject.plan.fallbackModels ?? [])].map((m) => [m.id, m]),
  );
  return (model.fallbacks ?? []).flatMap((id) => {
    const fallback = known.get(id);
    return fallback === undefined || subject.skip?.has(id) === true ? [] : [fallback];
  });
}

function cancelledOrFailed(
  model: ModelConfig,
  lens: string,
  error: unknown,
  signal: AbortSignal,
): LensReport {
  const report = failedReport(model, lens, publicFailureReason(error));
  return signal.aborted
    ? { ...report, outcome: "cancelled", failure: publicCancelReason(signal.reason) }
    : report;
}

/** What get_diff may serve: every changed file but those the repository's globs leave out. */
function changedFiles(change: ChangeSet): ChangedFiles {
  const excluded = new Map<string, string>();
  for (const entry of change.notReviewed) {
    if (entry.reason === "ignored") excluded.set(entry.path, "the repository's config ignores it");
    else if (entry.reason === "ignore-unchecked") {
      excluded.set(entry.path, "it could not be checked against the repository's ignore globs");
    }
  }
  return { files: change.files.filter((file) => !excluded.has(file.path)), excluded };
}
