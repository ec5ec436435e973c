import type { ChangeSet } from "./change-set.js";

/** The files reviewers are given as the change: the step of an incremental round, less those left out. */
export function filesUnderReview(change: ChangeSet): ChangeSet["files"] {
  const left = new Set(change.notReviewed.map((entry) => entry.path));
  const files = change.scope?.kind === "incremental" ? change.scope.files : change.files;
  return files.filter((file) => !left.has(file.path));
}
