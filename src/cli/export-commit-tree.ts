import { createReadStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import { type ExtractResult, extractTarball } from "../github/index.js";
import type { BoundGit } from "./run-git.js";

export interface ExportedTree {
  /** Holds the commit's files, nothing else (no .git). */
  dir: string;
  /** Files left out by the extraction limits, as the app's snapshot reports them. */
  skipped: ExtractResult["skipped"];
  /** Skipped entries past the listed ones (a tree with very many): counted, not named. */
  unlistedSkips: number;
  /** Removes everything the export wrote. */
  cleanup: () => Promise<void>;
}

/**
 * Writes a commit's tree into a new temporary directory, so the reviewers' tools read the head
 * being reviewed rather than whatever the working tree holds. `git archive` leaves the user's
 * index and worktrees alone, and the tarball goes through the same extraction (limits, unsafe
 * links refused) as the app's snapshot. Like GitHub's tarball, it honours `export-ignore` and
 * `export-subst` attributes.
 */
export async function exportCommitTree(
  git: BoundGit,
  sha: string,
  temporaryRoot: string,
): Promise<ExportedTree> {
  const parent = await mkdtemp(join(temporaryRoot, "gadfly-head-"));
  const cleanup = () => rm(parent, { recursive: true, force: true });
  try {
    const archive = join(parent, "head.tar.gz");
    const dir = join(parent, "tree");
    await git(["archive", "--format=tar.gz", "--prefix=head/", `--output=${archive}`, sha]);
    const extracted = await extractTarball(createReadStream(archive), dir);
    await rm(archive, { force: true });
    return { dir, skipped: extracted.skipped, unlistedSkips: extracted.unlistedSkips, cleanup };
  } catch (error) {
    await cleanup();
    throw error;
  }
}
