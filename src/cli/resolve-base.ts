import { LocalChangeError } from "./local-change-error.js";
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
 * shows: the head's own changes, not the base's newer commits); git's empty tree, given by its
 * id, reviews every file as added. Without one, the merge-base of the head with the default
 * branch: origin/HEAD's target, else main, else master. With none of them, a LocalChangeError
 * naming --base: reviewing the whole repository, as the empty tree would, is rarely what was
 * meant, and costs a round on every file. A repository with no commit yet has nothing before
 * its files: the empty tree.
 */
export async function resolveBase(
  git: BoundGit,
  baseRef: string | null,
  headSha: string | null,
): Promise<ResolvedBase> {
  const emptyTree = async () => (await git(["hash-object", "-t", "tree", "--stdin"], "")).trim();
  if (baseRef !== null) {
    if (/^[0-9a-f]{40,64}$/.test(baseRef) && baseRef === (await emptyTree())) {
      return { sha: baseRef, isCommit: false };
    }
    const base = await resolveCommit(git, baseRef);
    const mergeBase = headSha === null ? null : await tryMergeBase(git, base, headSha);
    return { sha: mergeBase ?? base, isCommit: true };
  }
  if (headSha === null) return { sha: await emptyTree(), isCommit: false };
  for (const candidate of await defaultBranchCandidates(git)) {
    const branch = await tryResolveCommit(git, candidate);
    const mergeBase = branch === null ? null : await tryMergeBase(git, branch, headSha);
    if (mergeBase !== null) return { sha: mergeBase, isCommit: true };
  }
  throw new LocalChangeError(
    "no default branch to compare with (no origin/HEAD, main or master that shares history with the head): pass --base REF, the branch this change goes into (--base HEAD reviews only the uncommitted changes)",
  );
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
