import type { PromptStyle, RepositoryConvention } from "../agent/index.js";
import type { DiffFile, FileEvidence } from "../diff/index.js";
import type { NotReviewed } from "./round-status.js";

/**
 * One change to review, whatever it came from (a pull request, a local git
 * range): the core knows nothing of GitHub.
 */
export interface ChangeSet {
  title: string;
  description: string;
  headSha: string;
  /** Every changed file, parsed (the changed-line index is built from these). */
  files: DiffFile[];
  /**
   * The diff in every reviewer's first message: the highest-priority hunks within the budget
   * (compact), or whole files packed into it (full-diff).
   */
  packedDiff: string;
  /** Paths in `packedDiff`. */
  included: string[];
  /**
   * One line per changed file (status, path, size, what of it is shown), for the compact
   * prompt; absent in the full-diff style, whose prompt lists the paths alone.
   */
  listing?: string[];
  /** How reviewers are given the change (PromptStyle); absent reads as compact. */
  promptStyle?: PromptStyle;
  /** Files left out of the review, and why: listed on the board when the round ends. */
  notReviewed: NotReviewed[];
  /** What the head's tree said of the files (generated, text), when it was read. */
  evidence?: FileEvidence;
  /** A directory holding the head tree; the reviewers' tools read it. */
  workspaceDir: string;
  /**
   * The repository's conventions every lens is given (files from the base, the config's
   * instructions for these paths), bounded; absent or empty when there are none.
   */
  conventions?: RepositoryConvention[];
  /**
   * What the reviewers review as the change: the whole PR (absent reads as full), or only what
   * changed since the last reviewed head, with the whole PR (`files`) still reachable through
   * the tools. `files` stays the whole PR's either way; an incremental round's `packedDiff` is
   * the step's (applyReviewScope).
   */
  scope?: ReviewScope;
  /** Our own note about the diff shown (e.g. that it is only the change since the last round); trusted. */
  diffNote?: string;
}

/**
 * The change under review. `incremental.files` are the files changed since `since` (the head of
 * the PR's last round that published a consensus), each with the patch from `since` to the head:
 * the prompt shows these as the change under review. A full review says why it is full, so the
 * board can tell an operator what the round cost and why.
 */
export type ReviewScope =
  | { kind: "full"; reason: FullReviewReason }
  | {
      kind: "incremental";
      since: string;
      files: DiffFile[];
      /**
       * Paths in `files` shown with the whole PR's patch, because GitHub gave no step patch
       * for them (too large): their lines cannot be followed, so every finding on them is
       * re-checked.
       */
      wholePatch?: string[];
    };

/**
 * Why a round reviews the whole PR: its first round; `@gadfly review full`; the last reviewed
 * head is not an ancestor of the new one (a force-push or rebase) or is gone; nothing changed
 * since it (a review asked again on the same head); the step's diff could not be had whole
 * (too many files for GitHub to list, or GitHub failed); a lens of the last round that no model
 * finished (what it was to review is unreviewed); the PR's base branch is not the one the last
 * round reviewed against (or that was not recorded), or it was rewritten under the PR.
 */
export type FullReviewReason =
  | "first-round"
  | "requested"
  | "not-ancestor"
  | "no-change"
  | "too-large"
  | "unavailable"
  | "previous-partial"
  | "base-changed";
