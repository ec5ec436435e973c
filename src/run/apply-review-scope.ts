import { type DiffFile, packDiff, summarizeChange } from "../diff/index.js";
import type { ChangeSet, ReviewScope } from "./change-set.js";
import { FULL_DIFF_BUDGET_CHARS } from "./prepare-change-set.js";

/**
 * The change set a round's reviewers get for its scope. Full: as prepared. Incremental: the
 * first message's diff is the step since the last reviewed head (the files the repository does
 * not ignore, packed into the same budget), said in a note of ours, while `files` (and the
 * listing of every changed file) stay the whole PR's, readable through the tools. A step file
 * over the budget is listed as not reviewed, as any packed file is.
 */
export function applyReviewScope(
  change: ChangeSet,
  scope: ReviewScope,
  diffBudgetChars: number,
): ChangeSet {
  if (scope.kind === "full") return { ...change, scope };
  const left = new Set(change.notReviewed.map((entry) => entry.path));
  const reviewed = scope.files.filter((file) => !left.has(file.path));
  const since = scope.since.slice(0, 7);
  const packed =
    change.promptStyle === "full-diff"
      ? packDiff(reviewed, FULL_DIFF_BUDGET_CHARS, { evidence: change.evidence })
      : compactStep(change, reviewed, diffBudgetChars, since);
  const count = `${reviewed.length} file${reviewed.length === 1 ? "" : "s"}`;
  return {
    ...change,
    scope,
    packedDiff: packed.text,
    included: packed.included,
    ...("listing" in packed ? { listing: packed.listing } : {}),
    notReviewed: [
      ...change.notReviewed,
      ...packed.omitted.map((omitted) => ({ path: omitted.path, reason: omitted.reason })),
    ],
    diffNote:
      reviewed.length === 0
        ? `This round is incremental: nothing the repository reviews changed since \`${since}\`, the head Gadfly last reviewed. Its earlier rounds reviewed the pull request's changes; the files listed above are readable with the tools.`
        : `This round is incremental: the diff above is only what changed since \`${since}\`, the head Gadfly last reviewed (${count}), and that is the change under review. Earlier rounds reviewed the rest of the pull request: every file it changes is listed above and readable with the tools, for context. Report a problem outside this change only when this change causes or exposes it.`,
  };
}

/** Marks, inside compactStep, the listed files the step leaves unchanged. */
const UNCHANGED = "\u0000unchanged";

/**
 * The compact form of the step: its highest-priority hunks within the budget, and the whole
 * pull request listed: the step's files first, each saying whether it is shown, then the files
 * the step left unchanged under one heading, so a push of one file to a large PR does not
 * resend a note per untouched file with every turn. Only the step's generated and binary files
 * are left out (those of the whole PR already are); the rest is read with get_diff.
 */
function compactStep(
  change: ChangeSet,
  step: readonly DiffFile[],
  budget: number,
  since: string,
): { text: string; included: string[]; omitted: ChangeSet["notReviewed"]; listing: string[] } {
  const notes = new Map<string, string>();
  for (const entry of change.notReviewed) notes.set(entry.path, "— not reviewed");
  const summary = summarizeChange(step, budget, {
    listed: change.files,
    notes,
    unshownNote: UNCHANGED,
    evidence: change.evidence,
  });
  const unchanged = summary.listing.filter((line) => line.endsWith(` ${UNCHANGED}`));
  const rest = summary.listing.filter((line) => !line.endsWith(` ${UNCHANGED}`));
  // The "… and N more" line (when the listing is capped) stays last.
  const more = rest.at(-1)?.startsWith("… and ") === true ? rest.splice(-1) : [];
  return {
    text: summary.hunks,
    included: summary.shown,
    omitted: summary.excluded,
    listing: [
      ...rest,
      ...(unchanged.length === 0
        ? []
        : [
            `unchanged since \`${since}\` (get_diff shows the pull request's patch):`,
            ...unchanged.map((line) => line.slice(0, -UNCHANGED.length - 1)),
          ]),
      ...more,
    ],
  };
}
