import { createHash } from "node:crypto";
import { stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { resolve } from "node:path";
import type { DiffFile } from "../diff/index.js";
import { parseUnifiedDiff } from "../diff/index.js";
import { unlistedSkipsNote } from "../github/index.js";
import type { ChangeToReview, NotReviewed } from "../run/index.js";
import { copyWorkingTree } from "./copy-working-tree.js";
import { describeChange } from "./describe-change.js";
import { exportCommitTree } from "./export-commit-tree.js";
import { LocalChangeError } from "./local-change-error.js";
import { resolveBase } from "./resolve-base.js";
import { resolveCommit, tryResolveCommit } from "./resolve-commit.js";
import { type BoundGit, GitCommandError, type GitRunner, runGit } from "./run-git.js";
import { untrackedFileDiff } from "./untracked-file-diff.js";

export interface CollectLocalChangeOptions {
  /** Any directory inside the repository. */
  repoPath: string;
  /** Default: the merge-base with the default branch (see resolveBase). */
  base?: string;
  /** Default: the working tree, uncommitted and untracked (not ignored) files included. */
  head?: string;
  git?: GitRunner;
  /** The environment git runs with. Default: this process's. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Where a `head` commit's tree (or the working tree's files) is copied. Default: the OS temporary directory. */
  temporaryRoot?: string;
  /** Untracked files larger than this are not read; they are listed as too large. */
  maxUntrackedFileBytes?: number;
}

/** A local git change, ready for prepareChangeSet. */
export interface LocalChange {
  title: string;
  description: string;
  /** The head commit, or `WORKTREE-` and a hash of the diff when the head is the working tree. */
  headSha: string;
  /** The commit the diff starts from (a merge-base), or the empty tree's id. */
  baseSha: string;
  diffText: string;
  files: DiffFile[];
  /** The head's files: a copy of the working tree's tracked and untracked files, else an exported commit. */
  workspaceDir: string;
  /** Files the diff or the export left out (pass as prepareChangeSet's `alsoNotReviewed`). */
  notReviewed: NotReviewed[];
  /** Removes the exported copy, if any. Safe to call more than once. */
  cleanup: () => Promise<void>;
}

/** Marks a headSha that names the working tree rather than a commit. */
export const WORKTREE_PREFIX = "WORKTREE-";

/** The change as reviewChange reads it, with the base's convention files (none for an eval). */
export function localChangeSource(
  local: Pick<
    LocalChange,
    "title" | "description" | "headSha" | "files" | "workspaceDir" | "notReviewed"
  >,
  conventionFiles: NonNullable<ChangeToReview["source"]["conventionFiles"]>,
): ChangeToReview["source"] {
  return {
    title: local.title,
    description: local.description,
    headSha: local.headSha,
    files: local.files,
    workspaceDir: local.workspaceDir,
    alsoNotReviewed: local.notReviewed,
    conventionFiles,
  };
}

const DEFAULT_MAX_UNTRACKED_FILE_BYTES = 2 * 1024 * 1024;

/**
 * Flags that make the diff what the parser expects whatever the user's git config says:
 * prefixes (diff.noprefix, diff.mnemonicPrefix), colour (color.ui=always), external diff and
 * textconv drivers, diff.relative, the context size and the submodule format.
 */
const DIFF_CONFIG = [
  "-c",
  "diff.noprefix=false",
  "-c",
  "diff.mnemonicPrefix=false",
  "-c",
  "diff.suppressBlankEmpty=false",
];
const DIFF_FLAGS = [
  "--no-color",
  "--no-ext-diff",
  "--no-textconv",
  "--no-relative",
  "--unified=3",
  "-M",
  "--src-prefix=a/",
  "--dst-prefix=b/",
  "--submodule=short",
];

/**
 * Collects the change `gadfly review` reviews from a local repository. Throws LocalChangeError
 * with one clear line when the path is not a git repository or a ref does not exist.
 */
export async function collectLocalChange(options: CollectLocalChangeOptions): Promise<LocalChange> {
  const runner = options.git ?? runGit;
  const env = options.env ?? process.env;
  const root = await repositoryRoot(runner, env, resolve(options.repoPath));
  const git: BoundGit = (args, input) =>
    runner(args, input === undefined ? { cwd: root, env } : { cwd: root, env, input });

  const headCommit =
    options.head === undefined
      ? await tryResolveCommit(git, "HEAD")
      : await resolveCommit(git, options.head);
  const base = await resolveBase(git, options.base ?? null, headCommit);
  if (options.head !== undefined && headCommit !== null) {
    return collectCommit(git, options.head, headCommit, base, options.temporaryRoot ?? tmpdir());
  }
  return collectWorkingTree(git, root, headCommit, base, options);
}

async function collectCommit(
  git: BoundGit,
  headRef: string,
  headSha: string,
  base: { sha: string; isCommit: boolean },
  temporaryRoot: string,
): Promise<LocalChange> {
  const diffText = await git([...DIFF_CONFIG, "diff", ...DIFF_FLAGS, base.sha, headSha, "--"]);
  const files = parseUnifiedDiff(diffText);
  const { title, description } = await describeChange(git, {
    baseCommit: base.isCommit ? base.sha : null,
    headCommit: headSha,
    headName: branchLikeName(headRef),
    uncommitted: false,
  });
  const exported = await exportCommitTree(git, headSha, temporaryRoot);
  const changed = new Set(files.map((file) => file.path));
  return {
    title,
    description,
    headSha,
    baseSha: base.sha,
    diffText,
    files,
    workspaceDir: exported.dir,
    notReviewed: [
      ...exported.skipped
        .filter((skipped) => changed.has(skipped.path))
        .map((skipped) => ({ path: skipped.path, reason: "too-large" as const })),
      ...unlistedSkipsNote(exported.unlistedSkips),
    ],
    cleanup: exported.cleanup,
  };
}

async function collectWorkingTree(
  git: BoundGit,
  root: string,
  headCommit: string | null,
  base: { sha: string; isCommit: boolean },
  options: CollectLocalChangeOptions,
): Promise<LocalChange> {
  const tracked = await git([...DIFF_CONFIG, "diff", ...DIFF_FLAGS, base.sha, "--"]);
  const untrackedPaths = (await git(["ls-files", "--others", "--exclude-standard", "-z"]))
    .split("\0")
    // A trailing slash is a nested repository: git would not diff into it either.
    .filter((path) => path !== "" && !path.endsWith("/"));
  const maxBytes = options.maxUntrackedFileBytes ?? DEFAULT_MAX_UNTRACKED_FILE_BYTES;
  let diffText = tracked;
  const notReviewed: NotReviewed[] = [];
  for (const path of untrackedPaths) {
    const untracked = await untrackedFileDiff(root, path, maxBytes);
    if (untracked.kind === "diff") diffText += untracked.text;
    else if (untracked.kind === "too-large") notReviewed.push({ path, reason: "too-large" });
  }
  const { title, description } = await describeChange(git, {
    baseCommit: base.isCommit ? base.sha : null,
    headCommit,
    headName: await currentBranch(git),
    uncommitted:
      untrackedPaths.length > 0 || headCommit === null || (await differsFromHead(git, headCommit)),
  });
  const hash = createHash("sha256").update(`${base.sha}\0${diffText}`).digest("hex");
  const copy = await copyWorkingTree(git, root, untrackedPaths, options.temporaryRoot ?? tmpdir());
  return {
    title,
    description,
    headSha: `${WORKTREE_PREFIX}${hash.slice(0, 40)}`,
    baseSha: base.sha,
    diffText,
    files: parseUnifiedDiff(diffText),
    workspaceDir: copy.dir,
    notReviewed,
    cleanup: copy.cleanup,
  };
}

/** The top of the working tree holding `path`, or a LocalChangeError saying why there is none. */
async function repositoryRoot(
  runner: GitRunner,
  env: Readonly<Record<string, string | undefined>>,
  path: string,
): Promise<string> {
  const info = await stat(path).catch(() => null);
  if (info === null) throw new LocalChangeError(`no such directory: ${path}`);
  if (!info.isDirectory()) throw new LocalChangeError(`not a directory: ${path}`);
  try {
    return (await runner(["rev-parse", "--show-toplevel"], { cwd: path, env })).trim();
  } catch (error) {
    if (!(error instanceof GitCommandError)) throw error;
    if (error.spawnCode === "ENOENT")
      throw new LocalChangeError("git is not installed or not on PATH");
    if (/not a git repository/i.test(error.stderr)) {
      throw new LocalChangeError(`not a git repository: ${path}`);
    }
    throw new LocalChangeError(`cannot use the git repository at ${path}: ${error.message}`);
  }
}

/** A ref worth showing as a title (`feature/login`), not `HEAD~2` or a bare SHA. */
function branchLikeName(ref: string): string | null {
  if (!/^[A-Za-z0-9._/-]+$/.test(ref) || /^[0-9a-f]{7,64}$/i.test(ref)) return null;
  return ref === "HEAD" || ref === "FETCH_HEAD" || ref === "ORIG_HEAD" ? null : ref;
}

async function currentBranch(git: BoundGit): Promise<string | null> {
  try {
    const name = (await git(["symbolic-ref", "--quiet", "--short", "HEAD"])).trim();
    return name === "" ? null : name;
  } catch (error) {
    if (error instanceof GitCommandError && error.exitCode !== null) return null;
    throw error;
  }
}

/** Tracked files changed (staged or not) since the head commit. */
async function differsFromHead(git: BoundGit, headCommit: string): Promise<boolean> {
  try {
    await git(["diff", "--quiet", "--no-ext-diff", "--no-textconv", headCommit, "--"]);
    return false;
  } catch (error) {
    if (error instanceof GitCommandError && error.exitCode === 1) return true;
    throw error;
  }
}
