import { ignoreMatcher } from "../config/index.js";
import type { DiffFile } from "../diff/index.js";
import { packDiff } from "../diff/index.js";
import type { ChangeSet } from "./change-set.js";
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
  /** Files the snapshot could not take (e.g. skipped by size while extracting). */
  alsoNotReviewed?: readonly NotReviewed[];
}

/** Applies the ignore globs and packs the rest into the reviewers' budget; nothing is dropped silently. */
export function prepareChangeSet(source: ChangeSetSource): ChangeSet {
  // Linear-time matching of the repository's globs, with a bound on the whole change set:
  // a hostile glob list and paths made for it cannot stall the event loop.
  const { isIgnored } = ignoreMatcher(source.ignore);
  const notReviewed: NotReviewed[] = [];
  const reviewed: DiffFile[] = [];
  for (const file of source.files) {
    if (isIgnored(file.path) || (file.oldPath !== null && isIgnored(file.oldPath))) {
      notReviewed.push({ path: file.path, reason: "ignored" });
    } else {
      reviewed.push(file);
    }
  }
  const packed = packDiff(reviewed, source.diffBudgetChars);
  for (const omitted of packed.omitted)
    notReviewed.push({ path: omitted.path, reason: omitted.reason });
  const seen = new Set(notReviewed.map((entry) => entry.path));
  for (const entry of source.alsoNotReviewed ?? []) {
    if (!seen.has(entry.path)) notReviewed.push(entry);
  }
  return {
    title: source.title,
    description: source.description,
    headSha: source.headSha,
    files: source.files,
    packedDiff: packed.text,
    included: packed.included,
    notReviewed,
    workspaceDir: source.workspaceDir,
  };
}
