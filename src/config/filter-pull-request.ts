import { matchTitlePattern } from "./match-title-pattern.js";
import { DEFAULT_SKIPPED_AUTHORS, type RepoFilters } from "./repo-config-schema.js";
import { compileSafeGlob } from "./safe-glob.js";

/** What GitHub says of a pull request, as the filters read it: all of it the author's text but the counts. */
export interface FilteredPullRequest {
  author: string | null;
  labels: readonly string[];
  title: string;
  baseRef: string;
  changedFiles: number;
  /** Added plus deleted lines. */
  changedLines: number;
}

export type FilterDecision =
  | { kind: "review" }
  /** Not reviewed on a push; `reason` is ours (names the field), the PR's text only quoted. */
  | { kind: "skip"; reason: string }
  /** Over `maxSize`: one comment asks to split it instead of a round. */
  | { kind: "split"; reason: string };

const count = new Intl.NumberFormat("en-US");

/**
 * Whether a push reviews a pull request under the repository's `filters`, in a fixed order
 * (author, labels, title, base branch, size) so the first reason found is the one shown.
 * Pure: the caller decides that a writer's `@gadfly review` skips this altogether.
 */
export function filterPullRequest(filters: RepoFilters, pull: FilteredPullRequest): FilterDecision {
  const reason =
    authorReason(filters, pull.author) ??
    labelReason(filters, pull.labels) ??
    titleReason(filters, pull.title) ??
    baseReason(filters, pull.baseRef);
  if (reason !== null) return { kind: "skip", reason };
  const size = filters.maxSize;
  if (size === undefined) return { kind: "review" };
  const over = [
    ...(size.files !== undefined && pull.changedFiles > size.files
      ? [`${count.format(pull.changedFiles)} files (over ${count.format(size.files)})`]
      : []),
    ...(size.changedLines !== undefined && pull.changedLines > size.changedLines
      ? [
          `${count.format(pull.changedLines)} changed lines (over ${count.format(size.changedLines)})`,
        ]
      : []),
  ];
  // A downshift is the plan's (resolveReviewPlan): the round runs, smaller, and its board says so.
  if (over.length === 0 || size.over === "downshift") return { kind: "review" };
  return { kind: "split", reason: `the pull request is too large to review: ${over.join(", ")}` };
}

function authorReason(filters: RepoFilters, author: string | null): string | null {
  if (author === null) return null;
  const login = author.toLowerCase();
  if (!filters.reviewBots && DEFAULT_SKIPPED_AUTHORS.some((bot) => bot === login)) {
    return `author ${author} is a bot skipped by default (filters.reviewBots)`;
  }
  if (filters.skipAuthors.some((skipped) => skipped.toLowerCase() === login)) {
    return `author ${author} is skipped (filters.skipAuthors)`;
  }
  return null;
}

function labelReason(filters: RepoFilters, labels: readonly string[]): string | null {
  // GitHub's label names are unique case-insensitively.
  const names = new Set(labels.map((label) => label.toLowerCase()));
  const skipped = filters.skipLabels.find((label) => names.has(label.toLowerCase()));
  if (skipped !== undefined) return `label "${skipped}" is skipped (filters.skipLabels)`;
  if (
    filters.onlyLabels.length > 0 &&
    !filters.onlyLabels.some((label) => names.has(label.toLowerCase()))
  ) {
    return `none of the labels filters.onlyLabels asks for (${filters.onlyLabels.join(", ")})`;
  }
  return null;
}

function titleReason(filters: RepoFilters, title: string): string | null {
  const pattern = filters.skipTitles.find((entry) => matchTitlePattern(title, entry));
  return pattern === undefined ? null : `title matches "${pattern}" (filters.skipTitles)`;
}

function baseReason(filters: RepoFilters, baseRef: string): string | null {
  if (filters.skipBaseBranches.some((glob) => globMatches(glob, baseRef))) {
    return `base branch ${baseRef} is skipped (filters.skipBaseBranches)`;
  }
  if (
    filters.baseBranches.length > 0 &&
    !filters.baseBranches.some((glob) => globMatches(glob, baseRef))
  ) {
    return `base branch ${baseRef} is not among filters.baseBranches`;
  }
  return null;
}

/** The config validated each glob (linear-time matcher, no RegExp); one that fails matches nothing. */
function globMatches(glob: string, ref: string): boolean {
  const compiled = compileSafeGlob(glob);
  return compiled.ok && compiled.matches(ref);
}
