import type { BudgetNote, UsageFigures } from "../accounting/index.js";
import type { Verdict } from "../findings/index.js";
import type { FullReviewReason } from "./change-set.js";

/** `skipped`: never started, a rule kept the model from this PR; neither failed nor clean. */
export type LensState = "queued" | "running" | "done" | "failed" | "cancelled" | "skipped";

export interface LensStatus {
  lens: string;
  state: LensState;
  /** While running: the tool-loop turn in progress. */
  turn?: number;
  /** When done. */
  verdict?: Verdict;
  /** When failed, cancelled or skipped: a reason safe to publish. */
  reason?: string;
  /** The hops the lens made along its model's failover chain, in order; absent when none. */
  failovers?: { from: string; to: string; reason: string }[];
}

export interface ReviewerStatus {
  model: string;
  provider: string;
  /** In the order of the configured lenses. */
  lenses: LensStatus[];
  /**
   * This model's cross-examination phase, once the lenses ended: the other models' findings
   * it was asked to test, how many it answered (each a vote), how many failed or were
   * cancelled (no vote). Absent when it was asked nothing.
   */
  crossExamination?: CrossExaminationStatus;
  /** What it has spent in this round so far: lenses that ended and challenges it answered. */
  usage?: UsageFigures;
}

export interface CrossExaminationStatus {
  asked: number;
  confirmed: number;
  refuted: number;
  unsure: number;
  /** Failed or cancelled: counted neither way. */
  failed: number;
}

/**
 * Why a file was not reviewed. The board, the CLI's text and its JSON schema all list these.
 * `ignore-unchecked`: the ignore globs' matching budget ran out before the file was checked.
 * `unsafe-link`, `unsupported`, `refused`, `over-limit`: the snapshot left the file out (a link
 * out of the tree, not a regular file, a path the extractor refused, past the archive's limits).
 * `unparsable`: GitHub's patch of the file did not parse (and the whole diff did not give it).
 * `no-patch`: GitHub listed the file with no patch and its whole diff could not say what changed.
 * `not-text`: a source file git calls binary (a NUL byte): there is no text diff to review.
 * `lockfile`: a lockfile, not sent to models; the lockfile check lists its hosts and scripts.
 */
export const NOT_REVIEWED_REASONS = [
  "binary",
  "too-large",
  "generated",
  "ignored",
  "ignore-unchecked",
  "over-budget",
  "deleted",
  "unsafe-link",
  "unsupported",
  "refused",
  "over-limit",
  "unparsable",
  "no-patch",
  "not-text",
  "lockfile",
] as const;
export type NotReviewedReason = (typeof NOT_REVIEWED_REASONS)[number];

/** A file the round did not review, and why: a partial review is never silent. */
export interface NotReviewed {
  path: string;
  reason: NotReviewedReason;
}

/** What the live status board shows at one moment. */
/** The board's view of a round's scope (see ReviewScope): counts, not the files. */
export type ScopeStatus =
  | { kind: "incremental"; since: string; files: number }
  | { kind: "full"; reason: FullReviewReason; since?: string };

export interface RoundStatus {
  headSha: string;
  round: number;
  updatedAt: Date;
  reviewers: ReviewerStatus[];
  /** Set when a newer push superseded this round. */
  supersededBy?: string;
  /** Set when the round was resumed after a restart. */
  resumed?: boolean;
  /** Set while a push's round waits for pushes to settle: it starts then unless a newer push comes. */
  settling?: {
    startsAt: Date;
    /** A reader's limit that holds the round past the quiet period, said on the board. */
    heldBecause?: string;
  };
  /**
   * What the round reviews, once known (after the snapshot): the change since the last reviewed
   * head, or the whole PR and why. The board says which.
   */
  scope?: ScopeStatus;
  /**
   * The budget's mark on the round: the cap that kept lenses from starting, the downshift of a
   * large change. Absent when the round ran its whole plan.
   */
  budget?: BudgetNote;
  /** Known once the snapshot is taken; listed when the round ends. */
  notReviewed: NotReviewed[];
  /** True once every reviewer has finished (or the round ended early). */
  finished: boolean;
  /** A round-level failure (e.g. the snapshot could not be taken), safe to publish. */
  failure?: string;
}
