import { copyFile, lstat, mkdir, mkdtemp, readlink, rm, symlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { BoundGit } from "./run-git.js";

const COPIES_IN_FLIGHT = 32;

export interface CopiedWorkingTree {
  /** The tracked files and the change's untracked ones, as the working tree has them. */
  dir: string;
  /** Removes the copy. */
  cleanup: () => Promise<void>;
}

/**
 * What a working-tree review is about, copied into a new temporary directory: every file git
 * tracks (as the working tree has it; one deleted there is left out) and the untracked files
 * the change includes. Never `.git` (the repository's config, hooks, remotes' credentials)
 * and never a gitignored file (`.npmrc`, `.env`: where tokens live), so neither a tool
 * nor a prompt-injected agent can quote them. Regular files and links only: a submodule is a
 * repository of its own, not this change.
 */
export async function copyWorkingTree(
  git: BoundGit,
  root: string,
  untracked: readonly string[],
  temporaryRoot: string,
): Promise<CopiedWorkingTree> {
  const parent = await mkdtemp(join(temporaryRoot, "gadfly-worktree-"));
  const cleanup = () => rm(parent, { recursive: true, force: true });
  try {
    const dir = join(parent, "tree");
    await mkdir(dir);
    const tracked = (await git(["ls-files", "--cached", "-z"])).split("\0");
    const made = new Set<string>();
    const paths = [...new Set([...tracked, ...untracked])].filter(
      (path) => path !== "" && !path.split("/").some((part) => part === ".git" || part === ".."),
    );
    // A few copies in flight: one at a time, a large checkout spends its time waiting on I/O.
    for (let start = 0; start < paths.length; start += COPIES_IN_FLIGHT) {
      await Promise.all(
        paths
          .slice(start, start + COPIES_IN_FLIGHT)
          .map((path) => copyEntry(join(root, path), join(dir, path), made)),
      );
    }
    return { dir, cleanup };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

async function copyEntry(from: string, to: string, made: Set<string>): Promise<void> {
  const info = await lstat(from).catch(() => null);
  if (info === null || !(info.isFile() || info.isSymbolicLink())) return;
  const parent = dirname(to);
  if (!made.has(parent)) {
    await mkdir(parent, { recursive: true });
    made.add(parent);
  }
  if (info.isSymbolicLink()) {
    // Kept as a link: the workspace's own checks decide whether it may be followed.
    await symlink(await readlink(from), to);
  } else {
    await copyFile(from, to);
  }
}
