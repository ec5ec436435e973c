import type { Consensus } from "../consensus/index.js";
import { leavesGap, notReviewedLabel } from "./not-reviewed-label.js";

/** What the consensus comment and the check's summary say of the files no model reviewed. */
export interface CoverageView {
  notReviewedCount: number;
  /** One of them is a gap (not only files the repository ignores): the review is partial. */
  notReviewedPartial: boolean;
  notReviewed: { path: string; reason: string }[];
  notReviewedOmitted: number;
  /** The lockfile check, when the change touches a lockfile. */
  lockfiles: {
    checked: string[];
    unchecked: string[];
    notes: { path: string; line: number; host: string | null; script: string | null }[];
    notesOmitted: number;
    clean: boolean;
  } | null;
}

/** At most this many files are named; the rest are counted (the comment must fit GitHub's limit). */
const MAX_NAMED = 50;

/** The files not reviewed (at most `rowLimit`, and 50), and the lockfile check's notes. */
export function coverageView(consensus: Consensus, rowLimit: number): CoverageView {
  const files = consensus.notReviewed ?? [];
  const named = Math.min(rowLimit, MAX_NAMED);
  const check = consensus.lockfiles;
  return {
    notReviewedCount: files.length,
    notReviewedPartial: files.some(leavesGap),
    notReviewed: files
      .slice(0, named)
      .map((file) => ({ path: file.path, reason: notReviewedLabel(file.reason) })),
    notReviewedOmitted: Math.max(0, files.length - named),
    lockfiles:
      check === undefined
        ? null
        : {
            checked: check.checked,
            unchecked: check.unchecked,
            notes: check.notes.slice(0, named).map((note) => ({
              path: note.path,
              line: note.line,
              host: note.kind === "host" ? note.detail : null,
              script: note.kind === "install-script" ? note.detail : null,
            })),
            notesOmitted: check.notesOmitted + Math.max(0, check.notes.length - named),
            clean: check.notes.length === 0 && check.unchecked.length === 0,
          },
  };
}
