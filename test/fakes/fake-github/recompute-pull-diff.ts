import { diffTrees } from "./diff-trees.js";
import { mergeBase } from "./merge-base.js";
import type { PullRequestRecord, RepositoryRecord } from "./types.js";

/**
 * The PR's files and diff as GitHub shows them: from the merge base of its base and its head
 * to the head (three-dot), so a merge of the base branch into the PR leaves the base's own
 * changes out and a file whose merge kept the old side shows as changed by the PR.
 */
export function recomputePullDiff(
  repository: RepositoryRecord,
  pullRequest: PullRequestRecord,
): void {
  const head = repository.commits.get(pullRequest.headSha);
  const base = mergeBase(repository, pullRequest.baseSha, pullRequest.headSha);
  if (base === undefined || head === undefined) return;
  pullRequest.files = diffTrees(base.tree, head.tree, pullRequest.renames);
  pullRequest.diff = pullRequest.files.map((file) => file.diffText).join("");
}
