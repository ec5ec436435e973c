import type { PromptStyle } from "../agent/index.js";
import { ignoreMatcher } from "../config/index.js";
import type { DiffFile, FileEvidence } from "../diff/index.js";
import { packDiff, summarizeChange } from "../diff/index.js";
import type { ChangeSet } from "./change-set.js";
import {
  type ConventionFile,
  type ConventionInstruction,
  conventionsFor,
} from "./repository-conventions.js";
import type { NotReviewed } from "./round-status.js";

export interface ChangeSetSource {
  title: string;
  description: string;
  headSha: string;
  files: DiffFile[];
  workspaceDir: string;
  /** Globs from the repo config: matching files are left out and listed as ignored. */
  ignore: readonly string[];
  diffBudgetChars: number;
  /** Default compact: see PromptStyle. */
  promptStyle?: PromptStyle | undefined;
  /** Files the snapshot could not take (e.g. skipped by size while extracting). */
  alsoNotReviewed?: readonly NotReviewed[];
  /** The convention files read from the base (never the head), each already bounded. */
  conventionFiles?: readonly ConventionFile[];
  /** The repository config's instructions: those whose globs match a changed path are given. */
  instructions?: readonly ConventionInstruction[];
  /**
   * What the head's tree says of the files (readFileEvidence): without it nothing is generated
   * and git's binary mark is taken as it is.
   */
  evidence?: FileEvidence | undefined;
  /** The base's `.gitattributes`, for readFileEvidence; null or absent when it has none. */
  attributes?: string | null;
}

/** Applies the ignore globs and packs the rest into the reviewers' budget; nothing is dropped silently. */
export function prepareChangeSet(source: ChangeSetSource): ChangeSet {
  // Linear-time matching of the repository's globs, with a bound on the whole change set:
  // a hostile glob list and paths made for it cannot stall the event loop.
  const matcher = ignoreMatcher(source.ignore);
  const notReviewed: NotReviewed[] = [];
  const reviewed: DiffFile[] = [];
  for (const file of source.files) {
    // The path the file has at the head (a deleted file's old one): a rename out of an
    // ignored folder brings new code under review, so its old path decides nothing.
    const verdict = matcher.check(file.path);
    if (verdict === "kept") reviewed.push(file);
    else if (verdict === "ignored") notReviewed.push({ path: file.path, reason: "ignored" });
    // Once the matching budget is spent, the files left could not be checked against the
    // globs. Reviewing them would overrule the repository's `ignore` without a word (the board
    // would say every file was reviewed); calling them ignored would claim a match nobody
    // found. They are listed as not reviewed with their own reason, so the board says the
    // review is partial and why. Ordinary globs stay far below the budget (IGNORE_MATCH_STEPS);
    // it takes a heavy glob list of the repository's own and many long paths to reach it.
    else notReviewed.push({ path: file.path, reason: "ignore-unchecked" });
  }
  const promptStyle = source.promptStyle ?? "compact";
  const shown =
    promptStyle === "compact"
      ? compactView(source, notReviewed)
      : fullDiffView(reviewed, notReviewed, source.evidence);
  const seen = new Set(notReviewed.map((entry) => entry.path));
  for (const entry of source.alsoNotReviewed ?? []) {
    if (!seen.has(entry.path)) notReviewed.push(entry);
  }
  return {
    title: source.title,
    description: source.description,
    headSha: source.headSha,
    files: source.files,
    packedDiff: shown.diff,
    included: shown.included,
    ...(shown.listing === undefined ? {} : { listing: shown.listing }),
    promptStyle,
    notReviewed,
    ...(source.evidence === undefined ? {} : { evidence: source.evidence }),
    workspaceDir: source.workspaceDir,
    conventions: conventionsFor({
      files: source.conventionFiles ?? [],
      instructions: source.instructions ?? [],
      changedPaths: source.files.flatMap((file) =>
        file.oldPath === null || file.oldPath === file.path
          ? [file.path]
          : [file.path, file.oldPath],
      ),
    }),
  };
}

/**
 * The diff budget of the full-diff style (the benchmark's baseline): what Gadfly packed into
 * every prompt before the compact summary, whatever `diffBudgetChars` says.
 */
export const FULL_DIFF_BUDGET_CHARS = 120_000;

interface FirstMessageView {
  diff: string;
  included: string[];
  listing?: string[];
}

/** Why an ignored file is listed without its hunks, as the summary says it. */
const NOT_REVIEWED_NOTE: Partial<Record<NotReviewed["reason"], string>> = {
  ignored: "— ignored by the repository's config, not reviewed",
  "ignore-unchecked": "— not checked against the repository's ignore globs, not reviewed",
};

/**
 * Every file listed, the best hunks within the budget; files left out for room are still
 * reviewed (get_diff reads them), so only lockfiles, generated and binary files (exclusionOf)
 * join `notReviewed`.
 */
function compactView(source: ChangeSetSource, notReviewed: NotReviewed[]): FirstMessageView {
  const notes = new Map<string, string>();
  for (const entry of notReviewed) {
    notes.set(entry.path, NOT_REVIEWED_NOTE[entry.reason] ?? "— not reviewed");
  }
  const summary = summarizeChange(source.files, source.diffBudgetChars, {
    notes,
    evidence: source.evidence,
  });
  for (const excluded of summary.excluded) notReviewed.push(excluded);
  return { diff: summary.hunks, included: summary.shown, listing: summary.listing };
}

/** Whole files packed into the old budget; what does not fit is not reviewed. */
function fullDiffView(
  reviewed: readonly DiffFile[],
  notReviewed: NotReviewed[],
  evidence: FileEvidence | undefined,
): FirstMessageView {
  const packed = packDiff(reviewed, FULL_DIFF_BUDGET_CHARS, { evidence });
  for (const omitted of packed.omitted)
    notReviewed.push({ path: omitted.path, reason: omitted.reason });
  return { diff: packed.text, included: packed.included };
}
