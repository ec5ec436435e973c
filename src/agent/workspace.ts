import { readFileSync, realpathSync, statSync } from "node:fs";
import { readFile, realpath, stat } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import type { SharedScrubbedCopies } from "../sandbox/index.js";
import { errorCode, ToolError } from "./tools/repo-tool.js";

/** A path inside the workspace, checked: its real location is inside the root. */
export interface WorkspacePath {
  /** As the model should see it: relative to the root, `/`-separated, "." for the root. */
  relativePath: string;
  /** The real (symlink-free) absolute path; the only path tools may open. */
  realPath: string;
  kind: "file" | "directory" | "other";
  size: number;
}

/**
 * Enough for the files a round's sessions read again (the changed files, tens of KB each), and
 * small enough that twenty rounds in flight in one process keep at most 80 MB of it.
 */
const DEFAULT_CONTENT_BUDGET = 4 * 1024 * 1024;

/** Files up to this size are read synchronously (see `read`). */
const SYNC_READ_BYTES = 256 * 1024;

/** Directory names no tool may enter: `.git` can hold credentials (a token in a remote URL). */
const HIDDEN_SEGMENTS = new Set([".git"]);

/**
 * The PR head snapshot the repo tools read from. Every path a model gives is
 * confined to it: absolute paths and `..` are refused before touching the
 * disk, and the real path (symlinks resolved at every level) must stay inside
 * the root, so a link planted by the PR cannot reach the rest of the machine.
 */
export class Workspace {
  /** The real path of the snapshot directory. */
  readonly root: string;
  /**
   * Paths already resolved and found inside, by normalized relative path. The snapshot is
   * written before the first tool runs and nothing writes to it afterwards (agent CLIs get a
   * copy, see openAgentSandbox), so a path that passed the checks once still passes them:
   * the twenty sessions of a round need not realpath and stat it again. Failures are not
   * kept; a path never seen is checked in full. Bounded by the snapshot's entries.
   */
  private readonly checked = new Map<string, WorkspacePath>();
  /** File contents read, by real path, within `contentBudget` bytes. */
  private readonly contents = new Map<string, Buffer>();
  private contentBytes = 0;

  /** The round's copies for agent CLIs, when its owner made them (SharedScrubbedCopies). */
  readonly sharedCopies: SharedScrubbedCopies | undefined;

  private constructor(
    root: string,
    private readonly contentBudget: number,
    sharedCopies: SharedScrubbedCopies | undefined,
  ) {
    this.root = root;
    this.sharedCopies = sharedCopies;
  }

  /**
   * `contentBudget`: bytes of file content kept for `read`, where the sessions of a round
   * read the same files again (each reviewer opens the changed files it looks at).
   */
  static async open(
    directory: string,
    options: { contentBudget?: number; sharedCopies?: SharedScrubbedCopies | undefined } = {},
  ): Promise<Workspace> {
    const root = await realpath(directory);
    const info = await stat(root);
    if (!info.isDirectory()) throw new Error(`workspace is not a directory: ${directory}`);
    return new Workspace(
      root,
      options.contentBudget ?? DEFAULT_CONTENT_BUDGET,
      options.sharedCopies,
    );
  }

  /** Whether a real (already resolved) path lies inside the root. */
  contains(realPath: string): boolean {
    if (realPath === this.root) return true;
    const prefix = this.root.endsWith(sep) ? this.root : this.root + sep;
    return realPath.startsWith(prefix) && !isHidden(relative(this.root, realPath));
  }

  /** Resolves what a model asked for, or throws a ToolError the model can read. */
  async resolve(requested: string | undefined): Promise<WorkspacePath> {
    const relativePath = normalizeRequestedPath(requested);
    const known = this.checked.get(relativePath);
    if (known !== undefined) return { ...known };
    const joined = relativePath === "." ? this.root : join(this.root, ...relativePath.split("/"));
    let realPath: string;
    try {
      // Synchronous, as `read` is for small files: realpath(3) and stat are a few system calls
      // on a local snapshot, cheaper than their two trips through the thread pool (~30 a round).
      realPath = realpathSync.native(joined);
    } catch (error) {
      if (isMissing(error)) {
        // Say "outside" rather than "not found" when the missing path hangs off a link that
        // leaves the workspace: the answer must not reveal what exists out there.
        const anchor = await this.nearestExistingAncestor(dirname(joined));
        if (anchor !== null && !this.contains(anchor)) throw outside(relativePath);
        throw new ToolError(`not found: ${relativePath}`);
      }
      throw new ToolError(`cannot open ${relativePath}: ${errorCode(error)}`);
    }
    if (!this.contains(realPath)) throw outside(relativePath);
    const info = statSync(realPath);
    const kind = info.isFile() ? "file" : info.isDirectory() ? "directory" : "other";
    const resolved: WorkspacePath = { relativePath, realPath, kind, size: info.size };
    this.checked.set(relativePath, resolved);
    return { ...resolved };
  }

  /**
   * The bytes of a file `resolve` returned; the first read of it is kept while the budget
   * lasts (oldest dropped first), later ones come from memory: callers must not change the
   * buffer. Errors are the fs call's.
   */
  async read(target: WorkspacePath): Promise<Buffer> {
    const kept = this.contents.get(target.realPath);
    if (kept !== undefined) return kept;
    // A small regular file is read at once: the async read's four thread-pool trips (open,
    // fstat, read, close) cost more than the read holds the event loop. Anything else (a FIFO
    // would block) goes the async way.
    const content =
      target.kind === "file" && target.size <= SYNC_READ_BYTES
        ? readFileSync(target.realPath)
        : await readFile(target.realPath);
    if (content.length <= this.contentBudget) {
      this.contents.set(target.realPath, content);
      this.contentBytes += content.length;
      for (const [path, old] of this.contents) {
        if (this.contentBytes <= this.contentBudget) break;
        this.contents.delete(path);
        this.contentBytes -= old.length;
      }
    }
    return content;
  }

  private async nearestExistingAncestor(path: string): Promise<string | null> {
    let current = path;
    for (;;) {
      try {
        return await realpath(current);
      } catch (error) {
        if (!isMissing(error)) return null;
      }
      const parent = dirname(current);
      if (parent === current) return null;
      current = parent;
    }
  }
}

/** Checks the shape of a requested path without touching the disk. */
function normalizeRequestedPath(requested: string | undefined): string {
  const raw = (requested ?? "").trim();
  if (raw.includes("\u0000")) throw new ToolError("invalid path: it contains a NUL byte");
  const slashed = raw.replace(/\\/g, "/");
  if (slashed.startsWith("/") || slashed.startsWith("~") || /^[A-Za-z]:/.test(slashed)) {
    throw new ToolError(
      `absolute paths are not allowed (${raw}): give a path relative to the repository root`,
    );
  }
  const segments = slashed.split("/").filter((segment) => segment !== "" && segment !== ".");
  if (segments.includes("..")) {
    throw new ToolError(`paths may not contain "..": ${raw} (the repository root is the top)`);
  }
  if (segments.some((segment) => HIDDEN_SEGMENTS.has(segment.toLowerCase()))) {
    throw new ToolError(`the .git directory is not available to the tools: ${raw}`);
  }
  return segments.length === 0 ? "." : segments.join("/");
}

function isHidden(relativePath: string): boolean {
  return relativePath.split(sep).some((segment) => HIDDEN_SEGMENTS.has(segment.toLowerCase()));
}

function outside(relativePath: string): ToolError {
  return new ToolError(
    `refused: ${relativePath} resolves outside the repository (a symbolic link); only files of the pull request's head are readable`,
  );
}

function isMissing(error: unknown): boolean {
  const code = errorCode(error);
  return code === "ENOENT" || code === "ENOTDIR";
}
