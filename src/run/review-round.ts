import {
  addUsageFigures,
  budgetReached,
  roundUsage,
  type UsageFigures,
} from "../accounting/index.js";
import type { ChangedFiles, LensDefinition, LensEvent, LensReport } from "../agent/index.js";
import {
  publicCancelReason,
  publicFailureReason,
  type reviewLens,
  Workspace,
} from "../agent/index.js";
import type { ModelConfig, ProviderConfig, ReviewPlan } from "../config/index.js";
import type { Message, ModelFactory } from "../llm/index.js";
import { createRedactor, memoizeRedactor, type Redactor } from "../llm/index.js";
import { type Clock, systemClock } from "../time/index.js";
import type { ChangeSet } from "./change-set.js";
import { collectSecrets } from "./collect-secrets.js";
import { redactReport } from "./redact-report.js";
import { failedReport, reviewLensChain } from "./review-lens-chain.js";
import type { ReviewerLimiter } from "./reviewer-limiter.js";
import type { RoundStatus } from "./round-status.js";
import { settleAll } from "./settle-all.js";
import { applyLensEvent, initialRoundStatus } from "./track-round-status.js";
import { withReviewerUsage } from "./with-reviewer-usage.js";

export interface ReviewRoundOptions {
  plan: ReviewPlan;
  providers: readonly ProviderConfig[];
  /** Definitions of every lens in `plan.lenses` (built-in and the repository's own). */
  lenses: readonly LensDefinition[];
  change: ChangeSet;
  round: number;
  /** Where provider keys are read from, by the names the config gives. */
  env: Readonly<Record<string, string | undefined>>;
  /**
   * Every secret of the process (collectSecrets, computed once at start-up): removed
   * from what models wrote before it reaches the board, a report or a transcript.
   * Without it, the secrets `env` and `providers` name are collected here.
   */
  secrets?: readonly string[];
  signal: AbortSignal;
  /** The global cap on (model, lens) reviews in flight, shared by every round of the process. */
  limiter: ReviewerLimiter;
  onStatus?: (status: RoundStatus) => void;
  /** Called as each lens ends (to persist it) before the round goes on. */
  onLensReport?: (report: LensReport) => Promise<void>;
  /** Lenses finished before a restart: their reports are reused, their models not called again. */
  finished?: readonly LensReport[];
  /**
   * Models kept from this change, by model id, with a reason safe to publish: each of
   * their lenses ends "skipped" without a model being built or a process started.
   */
  skip?: ReadonlyMap<string, string>;
  resumed?: boolean;
  clock?: Clock;
  record?: { dir: string };
  /**
   * Called with the error behind each failed lens, for the log (which redacts it):
   * reports and the board carry only the public reason.
   */
  onLensError?: (model: string, lens: string, error: unknown) => void;
  /** Called with each lens's conversation (secrets redacted) once the lens ends. */
  onTranscript?: (model: string, lens: string, messages: Message[]) => Promise<void>;
  /** Tests and the demo may build models their own way. */
  createModel?: ModelFactory;
  /**
   * The installation's spend today (UTC) in its other rounds, read as each lens is about to
   * start, for the plan's daily caps. Absent (the CLI): only the round cap is checked.
   */
  dailySpend?: () => Promise<UsageFigures>;
  /** The downshift the plan was given for a large change, in words: shown on the board. */
  downshift?: string;
  /**
   * An incremental round's light step (smallStepPlan): only the models `assignment` gives a lens
   * (lens → model ids) review it — none for an empty step — and `note` says so on the board.
   * Absent: every model reviews every lens.
   */
  step?: { note: string; empty: boolean; assignment: ReadonlyMap<string, readonly string[]> };
}

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
export async function reviewRound(given: ReviewRoundOptions): Promise<ReviewRoundResult> {
  // A lens whose report cannot be saved fails the round: the other lenses are stopped with it
  // (the round's own signal), and the round does not return before every lens has settled, so
  // nothing of it calls a model after its end.
  const failed = new AbortController();
  const options = { ...given, signal: AbortSignal.any([given.signal, failed.signal]) };
  const clock = options.clock ?? systemClock;
  const { plan, change } = options;
  const providers = new Map(options.providers.map((provider) => [provider.name, provider]));
  const lensById = new Map(options.lenses.map((lens) => [lens.id, lens]));
  const finished = new Map(
    (options.finished ?? []).map((report) => [`${report.model}\u0000${report.lens}`, report]),
  );

  // A model kept from the change keeps its skipped lenses on the board, whatever the step.
  const lensesOf = (model: string): string[] => {
    const assignment = options.step?.assignment;
    if (assignment === undefined || options.skip?.has(model) === true) return plan.lenses;
    return plan.lenses.filter((lens) => assignment.get(lens)?.includes(model) === true);
  };
  let status = initialRoundStatus(
    {
      headSha: change.headSha,
      round: options.round,
      // A light step's board lists the models it gave a lens, not the others as done.
      reviewers: plan.models
        .map((model) => ({ model: model.id, provider: model.provider, lenses: lensesOf(model.id) }))
        .filter((reviewer) => options.step === undefined || reviewer.lenses.length > 0),
      notReviewed: change.notReviewed,
      ...(options.resumed === true ? { resumed: true } : {}),
    },
    clock.now(),
  );
  if (options.downshift !== undefined || options.step !== undefined) {
    status = {
      ...status,
      budget: {
        ...(options.downshift === undefined ? {} : { downshift: options.downshift }),
        ...(options.step === undefined
          ? {}
          : { step: options.step.note, ...(options.step.empty ? { stepEmpty: true } : {}) }),
      },
    };
  }
  const secrets =
    options.secrets ?? collectSecrets({ env: options.env, providers: options.providers });
  // One for the round: every lens's transcript repeats the same opening (the diff summary) and
  // file reads, redacted once here instead of once per lens and session.
  const redact = memoizeRedactor(createRedactor(secrets));
  const publish = () => options.onStatus?.(status);
  const onEvent = (event: LensEvent) => {
    // A failure reason can quote a provider's answer: it reaches the board before the
    // lens's (redacted) report does.
    status = applyLensEvent(
      status,
      "reason" in event ? { ...event, reason: redact(event.reason) } : event,
    );
    publish();
  };
  // Lenses that will not run are folded in before the first publish: a board never shows
  // a skipped model queued, nor a resumed lens that already ended.
  const skipped = new Map<string, LensReport>();
  for (const model of plan.models) {
    const reason = options.skip?.get(model.id);
    if (reason === undefined) continue;
    for (const lensId of lensesOf(model.id)) {
      const key = `${model.id}\u0000${lensId}`;
      if (!finished.has(key)) skipped.set(key, skippedReport(model, lensId, reason));
    }
  }
  // Every ended lens's report, for the board's per-model spend.
  const ended: LensReport[] = [];
  const countUsage = (report: LensReport) => {
    ended.push(report);
    status = withReviewerUsage(status, roundUsage({ reports: ended, pricing: plan.pricing }));
  };
  for (const report of [...finished.values(), ...skipped.values()]) {
    // A resumed lens shows the hops it made before the restart.
    for (const hop of report.failovers ?? []) {
      const source = { model: report.model, provider: report.provider, lens: report.lens };
      status = applyLensEvent(status, { ...source, at: clock.now(), type: "failover", ...hop });
    }
    status = applyLensEvent(status, reportEvent(report, clock.now()));
    countUsage(report);
  }
  publish();

  const workspace = await Workspace.open(change.workspaceDir);
  const prompt = {
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

  // Checked as each lens takes its slot, so lenses already running finish and only those not
  // yet started are skipped; once a cap is reached it stays reached for the round.
  let reached: string | null = null;
  const budget = plan.budget;
  const markReached = (cap: string) => {
    reached = cap;
    // What follows the lenses is not started either (review-change.ts): the board says so.
    const skipsMore = plan.crossExamination?.enabled === true;
    status = {
      ...status,
      budget: {
        ...status.budget,
        reached,
        ...(skipsMore ? { crossExaminationSkipped: true } : {}),
      },
    };
  };
  const capReached = async (): Promise<string | null> => {
    if (reached !== null || budget === undefined) return reached;
    const round = roundUsage({ reports: ended, pricing: plan.pricing }).total;
    const daily = budget.dailyTokens !== undefined || budget.dailyCostUsd !== undefined;
    const today =
      daily && options.dailySpend !== undefined
        ? addUsageFigures(await options.dailySpend(), round)
        : undefined;
    const cap = budgetReached(budget, { round, ...(today === undefined ? {} : { today }) });
    if (cap !== null) markReached(cap);
    return cap;
  };
  // A round resumed after a restart keeps the cap its lenses were skipped for.
  const restored = [...finished.values()].find(
    (report) => report.outcome === "skipped" && report.failure?.startsWith(BUDGET_SKIP) === true,
  );
  if (restored?.failure != null) {
    markReached(restored.failure.slice(BUDGET_SKIP.length));
    publish();
  }

  // Interleave models (lens-major order) so one slow provider does not hold every slot.
  const jobs = plan.lenses.flatMap((lensId) =>
    plan.models
      .filter((model) => lensesOf(model.id).includes(lensId))
      .map((model) => ({ model, lensId })),
  );
  const settled = await settleAll(
    jobs,
    async ({ model, lensId }): Promise<LensReport> => {
      const previous = finished.get(`${model.id}\u0000${lensId}`);
      if (previous !== undefined) return previous;
      const skip = skipped.get(`${model.id}\u0000${lensId}`);
      if (skip !== undefined) {
        // Decided before the limiter: a skipped lens takes no slot and starts nothing.
        await options.onLensReport?.(skip);
        return skip;
      }
      const failed = (error: unknown): LensReport => {
        if (!options.signal.aborted) options.onLensError?.(model.id, lensId, error);
        return cancelledOrFailed(model, lensId, error, options.signal);
      };
      // The lens's spend is counted before its slot is freed, so the lens that takes the slot
      // next is checked against it.
      const settle = (raw: LensReport): LensReport => {
        const report = redactReport(raw, secrets);
        countUsage(report);
        return report;
      };
      const report = await options.limiter
        .run(
          async () =>
            settle(
              (await budgetSkip(model, lensId, capReached)) ??
                (await runOne({
                  model,
                  lensId,
                  provider: providers.get(model.provider),
                  providers,
                  lens: lensById.get(lensId),
                  options,
                  workspace,
                  prompt,
                  onEvent,
                  clock,
                  redact,
                }).catch(failed)),
            ),
          options.signal,
        )
        // Not started: the round was stopped while the lens waited for its slot.
        .catch((error: unknown) => settle(failed(error)));
      onEvent(reportEvent(report, clock.now()));
      await options.onLensReport?.(report);
      return report;
    },
    failed,
  );
  const reports = plan.models.flatMap((model) =>
    plan.lenses.flatMap((lensId) =>
      settled.filter((report) => report.model === model.id && report.lens === lensId),
    ),
  );
  status = { ...status, finished: true, updatedAt: new Date(clock.now()) };
  publish();
  return { reports, status };
}

interface RunOneInput {
  model: ModelConfig;
  lensId: string;
  provider: ProviderConfig | undefined;
  /** Every provider by name: a fallback may be another's. */
  providers: ReadonlyMap<string, ProviderConfig>;
  lens: LensDefinition | undefined;
  options: ReviewRoundOptions;
  workspace: Workspace;
  prompt: Parameters<typeof reviewLens>[0]["prompt"];
  onEvent: (event: LensEvent) => void;
  clock: Clock;
  /** The round's redactor, for the lens's transcript. */
  redact: Redactor;
}

async function runOne(input: RunOneInput): Promise<LensReport> {
  const { model, lensId, options } = input;
  if (input.provider === undefined)
    return failedReport(model, lensId, `unknown provider ${model.provider}`);
  if (input.lens === undefined) return failedReport(model, lensId, `unknown lens ${lensId}`);
  return reviewLensChain({ ...input, lens: input.lens, fallbacks: fallbacksOf(model, options) });
}

/** `model`'s fallbacks the round may use: known to the plan and not kept from this change. */
function fallbacksOf(model: ModelConfig, options: ReviewRoundOptions): ModelConfig[] {
  const known = new Map(
    [...options.plan.models, ...(options.plan.fallbackModels ?? [])].map((m) => [m.id, m]),
  );
  return (model.fallbacks ?? []).flatMap((id) => {
    const fallback = known.get(id);
    return fallback === undefined || options.skip?.has(id) === true ? [] : [fallback];
  });
}

function reportEvent(report: LensReport, at: number): LensEvent {
  const source = { model: report.model, provider: report.provider, lens: report.lens, at };
  if (report.outcome === "done" && report.verdict !== null) {
    return {
      ...source,
      type: "done",
      verdict: report.verdict,
      findings: report.findings.length,
      dropped: report.dropped.length,
    };
  }
  if (report.outcome === "cancelled")
    return { ...source, type: "cancelled", reason: report.failure ?? "cancelled" };
  if (report.outcome === "skipped")
    return { ...source, type: "skipped", reason: report.failure ?? "skipped" };
  return { ...source, type: "failed", reason: report.failure ?? "failed" };
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

/** How a lens skipped for the budget says so, the cap's words after it. */
const BUDGET_SKIP = "budget reached — ";

/** The lens's skipped report when a budget cap has been reached; undefined lets it start. */
async function budgetSkip(
  model: ModelConfig,
  lens: string,
  capReached: () => Promise<string | null>,
): Promise<LensReport | undefined> {
  const cap = await capReached();
  return cap === null ? undefined : skippedReport(model, lens, `${BUDGET_SKIP}${cap}`);
}

/** A lens never started: no text, no findings, no verdict; the reason says why. */
function skippedReport(model: ModelConfig, lens: string, reason: string): LensReport {
  return { ...failedReport(model, lens, reason), outcome: "skipped" };
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
