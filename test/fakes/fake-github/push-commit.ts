import { type FileContent, toBuffer } from "./add-repository.js";
import { diffTrees } from "./diff-trees.js";
import type { FakeState } from "./fake-state.js";
import type { PullRequestRecord, PullRequestSnapshot, RepositoryRecord, Tree } from "./types.js";

export interface PushedFile {
  path: string;
  /** null deletes the file. */
  content: FileContent | null;
  /** Moves the file from this path first (a rename). */
  previousPath?: string;
}

export interface PushOptions {
  /**
   * A force-push of rewritten history (a rebase, an amend): the new commit's parent is the
   * PR's base, so the previous head is no longer an ancestor of the new one.
   */
  rewrite?: boolean;
}

/** A new commit on the PR's head: new head SHA, files and diff recomputed. */
export function pushCommit(
  state: FakeState,
  repository: RepositoryRecord,
  pullRequest: PullRequestRecord,
  files: readonly PushedFile[],
  options: PushOptions = {},
): PullRequestSnapshot {
  const headCommit = repository.commits.get(pullRequest.headSha);
  const baseCommit = repository.commits.get(pullRequest.baseSha);
  if (headCommit === undefined || baseCommit === undefined) {
    throw new Error(`pull request #${pullRequest.number} has lost its commits`);
  }
  const tree: Tree = new Map(headCommit.tree);
  for (const file of files) {
    if (file.previousPath !== undefined) {
      tree.delete(file.previousPath);
      pullRequest.renames.set(
        file.path,
        pullRequest.renames.get(file.previousPath) ?? file.previousPath,
      );
    }
    if (file.content === null) tree.delete(file.path);
    else tree.set(file.path, toBuffer(file.content));
  }
  const commit = state.createCommit(
    repository,
    options.rewrite === true ? baseCommit.sha : headCommit.sha,
    tree,
    `Push to #${pullRequest.number}`,
  );
  if (pullRequest.headRepository === undefined)
    repository.branches.set(pullRequest.headRef, commit.sha);
  pullRequest.headSha = commit.sha;
  pullRequest.headHistory.push(commit.sha);
  pullRequest.files = diffTrees(baseCommit.tree, tree, pullRequest.renames);
  pullRequest.diff = pullRequest.files.map((file) => file.diffText).join("");
  pullRequest.updatedAt = state.timestamp();
  return state.pullRequestSnapshot(repository, pullRequest);
}
