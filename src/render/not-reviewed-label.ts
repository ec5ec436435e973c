import type { NotReviewedReason } from "../run/index.js";

const LABELS: Record<NotReviewedReason, string> = {
  binary: "binary file",
  "too-large": "too large",
  generated: "generated",
  ignored: "ignored by configuration",
  "ignore-unchecked": "not checked against the ignore globs (matching budget spent)",
  "over-budget": "over the review budget",
  deleted: "deleted",
  "unsafe-link": "a link out of the tree",
  unsupported: "not a regular file",
  refused: "a path the snapshot refused to write",
  "over-limit": "past the snapshot's limits",
  unparsable: "its patch from GitHub did not parse",
  "no-patch": "GitHub gave no patch for it",
  "not-text": "a source file git treats as binary (NUL byte): no text diff",
  lockfile: "lockfile (not sent to models; see the lockfile check)",
};

/** Why a file was not reviewed, in words: the board and the CLI say it the same way. */
export function notReviewedLabel(reason: NotReviewedReason | string): string {
  return Object.hasOwn(LABELS, reason) ? LABELS[reason as NotReviewedReason] : reason;
}

/**
 * Whether leaving a file out makes the review partial. A file the repository's own config ignores
 * (read from the default branch, never from the pull request) is the maintainers' choice: named,
 * but not a gap, or every pull request touching docs would be "partial" and the word would stop
 * meaning anything. Every other reason is a gap.
 */
export function leavesGap(file: { reason: NotReviewedReason | string }): boolean {
  return file.reason !== "ignored";
}
