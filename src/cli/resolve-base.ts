import { resolveCommit, tryResolveCommit } from "./resolve-commit.js";
import { type BoundGit, GitCommandError } from "./run-git.js";

/** Where the diff starts: a commit, or the empty tree when there is nothing to compare with. */
export interface ResolvedBase {
  sha: string;
  /** False for the empty tree (every file of the head reads as added). */
  isCommit: boolean;
}

/** Tried in order when no base is given: the remote's default branch, then the usual names. */
const DEFAULT_BRANCH_CANDIDATES = [
  "refs/heads/main",
  "refs/heads/master",
  "refs/remotes/origin/main",
  "refs/remotes/origin/master",
];

/**
 * The base of the diff. Given a ref, the merge-base of it and the head (what a pull request
 * shows: the head's own changes, not the base's newer commits). Without one, the merge-base of
 * the head with the default branch: origin/HEAD's target, else main, else master. Failing all
 * that (a repository with no such branch, or no commit yet), the empty tree, so that a
 * one-branch repository can still be reviewed as a whole.
 */
export async function resolveBase(
  git: BoundGit,
  baseRef: string | null,
  headSha: string | null,
): Promise<ResolvedBase> {
  if (baseRef !== null) {
    const base = await resolveCommit(git, baseRef);
    const mergeBase = headSha === null ? null : await tryMergeBase(git, base, headSha);
    return { sha: mergeBase ?? base, isCommit: true };
  }
  if (headSha !== null) {
    for (const candidate of await defaultBranchCandidates(git)) {
      const branch = await tryResolveCommit(git, candidate);
      const mergeBase = branch === null ? null : await tryMergeBase(git, branch, headSha);
      if (mergeBase !== null) return { sha: mergeBase, isCommit: true };
    }
  }
  return { sha: (await git(["hash-object", "-t", "tree", "--stdin"], "")).trim(), isCommit: false };
}

async function defaultBranchCandidates(git: BoundGit): Promise<string[]> {
  try {
    const target = (await git(["symbolic-ref", "--quiet", "refs/remotes/origin/HEAD"])).trim();
    return target === "" ? DEFAULT_BRANCH_CANDIDATES : [target, ...DEFAULT_BRANCH_CANDIDATES];
  } catch (error) {
    if (error instanceof GitCommandError && error.exitCode !== null)
      return DEFAULT_BRANCH_CANDIDATES;
    throw error;
  }
}

/** Null when the two histories share no commit. */
async function tryMergeBase(git: BoundGit, first: string, second: string): Promise<string | null> {
  try {
    const sha = (await git(["merge-base", first, second])).trim();
    return sha === "" ? null : sha;
  } catch (error) {
    if (error instanceof GitCommandError && error.exitCode === 1) return null;
    throw error;
  }
}
