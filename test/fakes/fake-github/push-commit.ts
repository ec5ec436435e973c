import { type FileContent, toBuffer } from "./add-repository.js";
import type { FakeState } from "./fake-state.js";
import { mergeBase } from "./merge-base.js";
import { recomputePullDiff } from "./recompute-pull-diff.js";
import type {
  CommitRecord,
  PullRequestRecord,
  PullRequestSnapshot,
  RepositoryRecord,
  Tree,
} from "./types.js";

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
  /**
   * A merge of the PR's base branch into it: the commit's second parent is the base branch's
   * tip, its tree the head's with `files` applied (the resolution), and the PR's base moves to
   * that tip, as GitHub's `base.sha` does.
   */
  mergeBase?: boolean;
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
  const baseTip = state.resolveRef(repository, pullRequest.baseRef);
  const tree: Tree =
    options.mergeBase === true
      ? mergeTrees(repository, headCommit, baseTip, files)
      : new Map(headCommit.tree);
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
    options.mergeBase === true
      ? `Merge ${pullRequest.baseRef} into #${pullRequest.number}`
      : `Push to #${pullRequest.number}`,
  );
  if (options.mergeBase === true) {
    if (baseTip === undefined) throw new Error(`base branch ${pullRequest.baseRef} is gone`);
    commit.parents.push(baseTip.sha);
    pullRequest.baseSha = baseTip.sha;
  }
  if (pullRequest.headRepository === undefined)
    repository.branches.set(pullRequest.headRef, commit.sha);
  pullRequest.headSha = commit.sha;
  pullRequest.headHistory.push(commit.sha);
  recomputePullDiff(repository, pullRequest);
  pullRequest.updatedAt = state.timestamp();
  return state.pullRequestSnapshot(repository, pullRequest);
}

/**
 * A merge of the base branch's tip into the head, as git resolves it path by path: the side
 * that changed since their merge base wins; a path both changed differently is a conflict the
 * pushed files must resolve.
 */
function mergeTrees(
  repository: RepositoryRecord,
  head: CommitRecord,
  tip: CommitRecord | undefined,
  resolved: readonly PushedFile[],
): Tree {
  if (tip === undefined) throw new Error("the base branch is gone");
  const base = mergeBase(repository, tip.sha, head.sha)?.tree ?? new Map();
  const same = (left: Buffer | undefined, right: Buffer | undefined) =>
    left === undefined ? right === undefined : right !== undefined && left.equals(right);
  const tree: Tree = new Map();
  const paths = new Set([...head.tree.keys(), ...tip.tree.keys(), ...base.keys()]);
  for (const path of paths) {
    const ours = head.tree.get(path);
    const theirs = tip.tree.get(path);
    const merged = same(ours, base.get(path))
      ? theirs
      : same(theirs, base.get(path)) || same(ours, theirs)
        ? ours
        : undefined;
    if (merged === undefined && !same(ours, theirs) && ours !== undefined && theirs !== undefined) {
      if (!resolved.some((file) => file.path === path))
        throw new Error(`merge conflict at ${path}: resolve it in the pushed files`);
      continue;
    }
    if (merged !== undefined) tree.set(path, merged);
  }
  return tree;
}
