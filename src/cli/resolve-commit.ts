import { LocalChangeError } from "./local-change-error.js";
import { type BoundGit, GitCommandError } from "./run-git.js";

/** The commit SHA a ref names, or a LocalChangeError "unknown ref: X". */
export async function resolveCommit(git: BoundGit, ref: string): Promise<string> {
  // A leading dash would reach git as an option.
  if (ref === "" || ref.startsWith("-")) throw new LocalChangeError(`unknown ref: ${ref}`);
  const sha = await tryResolveCommit(git, ref);
  if (sha === null) throw new LocalChangeError(`unknown ref: ${ref}`);
  return sha;
}

/** The commit SHA a ref names, or null when it names no commit. */
export async function tryResolveCommit(git: BoundGit, ref: string): Promise<string | null> {
  try {
    const sha = (await git(["rev-parse", "--verify", "--quiet", `${ref}^{commit}`])).trim();
    return sha === "" ? null : sha;
  } catch (error) {
    if (error instanceof GitCommandError && error.exitCode !== null) return null;
    throw error;
  }
}
