import type {
  CrossExaminationStatus,
  LensStatus,
  ReviewerStatus,
  RoundStatus,
} from "../run/index.js";
import { formatTimestamp, shortSha } from "./format.js";
import { leavesGap, notReviewedLabel } from "./not-reviewed-label.js";
import { type ScopeLine, scopeLine } from "./scope-line.js";
import { usageLine } from "./usage-line.js";

export interface StatusBoardView {
  round: number;
  /** Incremental or full and why; null on a first round and before the snapshot. */
  scope: ScopeLine | null;
  headSha: string;
  resumed: boolean;
  /** While the round waits for pushes to settle: when it starts, formatted. */
  settlingUntil: string | null;
  /** Why a reader's round waits past the quiet period (a limit reached); null: it does not. */
  heldBecause: string | null;
  supersededBy: string | null;
  failure: string | null;
  /** The budget cap that kept lenses from starting, in words; null when none was reached. */
  budgetReached: string | null;
  /** The cross-examination was not run because the cap was reached. */
  budgetSkippedCrossExamination: boolean;
  /** The downshift a large change got, in words; null when the round ran its whole plan. */
  downshift: string | null;
  /** The settings it came from (ours, trusted): `budget.downshift`, `filters.maxSize`. */
  downshiftBy: string;
  /** An incremental round's light step (small, or nothing to review), in words; null otherwise. */
  step: string | null;
  updatedAt: string;
  finishedCount: number;
  reviewerCount: number;
  reviewers: ReviewerView[];
  reviewersOmitted: number;
  /** The round has ended: list what was not reviewed. */
  ended: boolean;
  /** Every file was reviewed (said explicitly, so a partial review is never silent). */
  allReviewed: boolean;
  notReviewedCount: number;
  /** One of them is a gap (not only files the repository ignores): the review is partial. */
  notReviewedPartial: boolean;
  notReviewed: { path: string; reason: string }[];
  notReviewedOmitted: number;
}

interface ReviewerView {
  model: string;
  provider: string;
  emoji: string;
  state: string;
  lenses: { emoji: string; lens: string; detail: string }[];
  /** The cross-examination phase in one line (counts only); null when it was asked nothing. */
  crossExamination: string | null;
  /** What it has spent so far (tokens, model time, estimated cost); null before it spent any. */
  usage: string | null;
}

export interface StatusBoardViewOptions {
  /** At most this many files listed as not reviewed. */
  notReviewedLimit: number;
  /** Show each reviewer's lens lines and cross-examination line (false only to fit the size limit). */
  lensLines: boolean;
  /** At most this many reviewers shown (fewer only to fit the size limit). */
  reviewerLimit: number;
}

const LENS_EMOJI: Record<LensStatus["state"], string> = {
  queued: "⏳",
  running: "🔄",
  done: "✅",
  failed: "⚠️",
  cancelled: "🚫",
  skipped: "⏭️",
};

/** What status-board.hbs renders; text is raw, the template escapes it. */
export function statusBoardView(
  status: RoundStatus,
  options: StatusBoardViewOptions,
): StatusBoardView {
  const ended = status.finished;
  return {
    round: status.round,
    headSha: shortSha(status.headSha),
    resumed: status.resumed ?? false,
    scope: status.scope === undefined ? null : scopeLine(status.scope),
    settlingUntil: status.settling === undefined ? null : formatTimestamp(status.settling.startsAt),
    heldBecause: status.settling?.heldBecause ?? null,
    supersededBy: status.supersededBy === undefined ? null : shortSha(status.supersededBy),
    failure: status.failure ?? null,
    budgetReached: status.budget?.reached ?? null,
    budgetSkippedCrossExamination: status.budget?.crossExaminationSkipped === true,
    downshift: status.budget?.downshift ?? null,
    downshiftBy: status.budget?.downshiftBy ?? "budget.downshift",
    step: status.budget?.step ?? null,
    updatedAt: formatTimestamp(status.updatedAt),
    finishedCount: status.reviewers.filter(hasFinished).length,
    reviewerCount: status.reviewers.length,
    reviewers: status.reviewers
      .slice(0, options.reviewerLimit)
      .map((reviewer) => reviewerView(reviewer, options.lensLines)),
    reviewersOmitted: Math.max(0, status.reviewers.length - options.reviewerLimit),
    ended,
    // Files are reviewed only by lenses that ran: with none done (all failed, or every model
    // skipped), no file was.
    allReviewed:
      ended &&
      status.reviewers.some((reviewer) => reviewer.lenses.some((lens) => lens.state === "done")) &&
      status.notReviewed.length === 0 &&
      status.failure === undefined &&
      status.supersededBy === undefined,
    notReviewedCount: status.notReviewed.length,
    notReviewedPartial: status.notReviewed.some(leavesGap),
    notReviewed: status.notReviewed
      .slice(0, options.notReviewedLimit)
      .map((file) => ({ path: file.path, reason: notReviewedLabel(file.reason) })),
    notReviewedOmitted: Math.max(0, status.notReviewed.length - options.notReviewedLimit),
  };
}

/** A reviewer has finished when every lens has ended and it has answered all it was asked. */
function hasFinished(reviewer: ReviewerStatus): boolean {
  return lensesEnded(reviewer) && challengesPending(reviewer) === 0;
}

function lensesEnded(reviewer: ReviewerStatus): boolean {
  return reviewer.lenses.every((lens) => lens.state !== "queued" && lens.state !== "running");
}

/** Challenges put to this reviewer that have no answer (nor failure) yet. */
function challengesPending(reviewer: ReviewerStatus): number {
  return reviewer.crossExamination === undefined ? 0 : pendingOf(reviewer.crossExamination);
}

function pendingOf(phase: CrossExaminationStatus): number {
  return Math.max(0, phase.asked - phase.confirmed - phase.refuted - phase.unsure - phase.failed);
}

function reviewerView(reviewer: ReviewerStatus, lensLines: boolean): ReviewerView {
  const [emoji, state] = reviewerState(reviewer);
  return {
    model: reviewer.model,
    provider: reviewer.provider,
    emoji,
    state,
    lenses: lensLines
      ? reviewer.lenses.map((lens) => ({
          emoji: LENS_EMOJI[lens.state],
          lens: lens.lens,
          detail: lensDetail(lens),
        }))
      : [],
    crossExamination:
      lensLines && reviewer.crossExamination !== undefined
        ? crossExaminationLine(reviewer.crossExamination)
        : null,
    usage:
      lensLines &&
      reviewer.usage !== undefined &&
      reviewer.usage.inputTokens + reviewer.usage.outputTokens > 0
        ? usageLine(reviewer.usage)
        : null,
  };
}

/**
 * `3 asked · 1 confirmed · 1 refuted · 1 unsure`, then `· 1 failed` and `· 1 pending` when
 * there are any: failed (or cancelled) challenges are no vote, so they are not among the three.
 */
export function crossExaminationLine(phase: CrossExaminationStatus): string {
  const pending = pendingOf(phase);
  return [
    `${phase.asked} asked`,
    `${phase.confirmed} confirmed`,
    `${phase.refuted} refuted`,
    `${phase.unsure} unsure`,
    ...(phase.failed > 0 ? [`${phase.failed} failed`] : []),
    ...(pending > 0 ? [`${pending} pending`] : []),
  ].join(" · ");
}

function reviewerState(reviewer: ReviewerStatus): [string, string] {
  const count = (state: LensStatus["state"]): number =>
    reviewer.lenses.filter((lens) => lens.state === state).length;
  const total = reviewer.lenses.length;
  const done = count("done");
  if (!lensesEnded(reviewer)) {
    return count("queued") === total ? ["⏳", "queued"] : ["🔄", `running (${done}/${total} done)`];
  }
  // Its own lenses ended, but the round still waits on its answers to the others' findings.
  const pending = challengesPending(reviewer);
  if (pending > 0) {
    const asked = reviewer.crossExamination?.asked ?? pending;
    return ["🔍", `cross-examining (${asked - pending}/${asked} answered)`];
  }
  if (done === total) return ["✅", "done"];
  // A model kept from this PR by a rule: neither failed nor clean, the lens lines say why.
  const skipped = count("skipped");
  if (skipped === total) return ["⏭️", "skipped"];
  // Cancelled lenses were superseded, not broken: only a failure earns the warning.
  const failed = count("failed") > 0;
  if (done > 0 && !failed && count("cancelled") === 0) {
    return ["⏭️", `partial (${done}/${total} done, ${skipped} skipped)`];
  }
  if (done > 0) {
    return failed
      ? ["⚠️", `partial (${done}/${total} done)`]
      : ["🚫", `cancelled (${done}/${total} done)`];
  }
  return failed ? ["⚠️", "failed"] : ["🚫", "cancelled"];
}

/** The lens's state, then each failover hop: "no material issues · glm-5.2 → kimi-k2.6: 503". */
function lensDetail(lens: LensStatus): string {
  const hops = (lens.failovers ?? []).map((hop) => `${hop.from} → ${hop.to}: ${hop.reason}`);
  return [stateDetail(lens), ...hops].join(" · ");
}

function stateDetail(lens: LensStatus): string {
  switch (lens.state) {
    case "queued":
      return "queued";
    case "running":
      return lens.turn === undefined ? "running" : `running (turn ${lens.turn})`;
    case "done":
      return lens.verdict ?? "done";
    case "failed":
      return lens.reason ?? "failed";
    case "cancelled":
      return lens.reason ?? "cancelled";
    case "skipped":
      return lens.reason === undefined ? "skipped" : `skipped: ${lens.reason}`;
  }
}
