import { constants } from "node:fs";
import { lchown, mkdir, open, readdir, realpath, symlink, writeFile } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import { pipeline } from "node:stream/promises";

export interface CopyScrubbedWorkspaceOptions {
  /** The pull request's snapshot; only read. */
  source: string;
  /** Created here (its parent must exist); must not exist yet. */
  target: string;
  /**
   * Paths left out, matched at any depth as whole trailing path segments (`.claude/`
   * also removes `packages/app/.claude`); a leading `/` anchors one at the root. A
   * trailing `/` is documentation only: whatever carries the name goes.
   */
  removePaths: readonly string[];
  /** Every copied entry is given to this user (the `user` isolation level). */
  owner?: { uid: number; gid: number } | undefined;
  maxEntries?: number;
  maxBytes?: number;
}

export interface ScrubbedWorkspace {
  entries: number;
  bytes: number;
  /**
   * Relative paths left out because a removal rule matched them, and links standing where a
   * rule's leading directories would be (a link `.github` for the rule `.github/hooks/`).
   */
  removed: string[];
  /** Symbolic links left out: dangling, or resolving outside the snapshot. */
  droppedLinks: string[];
}

// The snapshot is already bounded by the tarball extractor; these only stop a runaway copy.
const DEFAULT_MAX_ENTRIES = 200_000;
const DEFAULT_MAX_BYTES = 2 * 1024 * 1024 * 1024;

/**
 * Copies a snapshot for an agent CLI, leaving out what the CLI would load as its own
 * configuration. Never follows a symbolic link while copying: files are opened with
 * O_NOFOLLOW, and a link is recreated (as a relative link) only when its target, fully
 * resolved, lies inside the snapshot — so the copy never gives a view of anything else.
 * Fifos, sockets and devices are skipped.
 */
export async function copyScrubbedWorkspace(
  options: CopyScrubbedWorkspaceOptions,
): Promise<ScrubbedWorkspace> {
  const rules = options.removePaths.map(compileRule).filter((rule) => rule.segments.length > 0);
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const root = await realpath(options.source);
  const result: ScrubbedWorkspace = { entries: 0, bytes: 0, removed: [], droppedLinks: [] };

  await mkdir(options.target, { mode: 0o755 });
  await giveToOwner(options.target, options.owner);
  const pending: string[][] = [[]];
  const reserve = (bytes: number) => {
    result.bytes += bytes;
    if (result.bytes > maxBytes) {
      throw new Error("the snapshot is larger than the workspace copy allows");
    }
  };
  for (let segments = pending.pop(); segments !== undefined; segments = pending.pop()) {
    const directory = join(root, ...segments);
    const files: { from: string; to: string }[] = [];
    for (const entry of await readdir(directory, { withFileTypes: true })) {
      const path = [...segments, entry.name];
      const relativePath = path.join("/");
      if (rules.some((rule) => rule.matches(path))) {
        result.removed.push(relativePath);
        continue;
      }
      result.entries += 1;
      if (result.entries > maxEntries) {
        throw new Error(`the snapshot has more than ${maxEntries} entries`);
      }
      const from = join(root, ...path);
      const to = join(options.target, ...path);
      if (entry.isDirectory()) {
        await mkdir(to, { mode: 0o755 });
        await giveToOwner(to, options.owner);
        pending.push(path);
      } else if (entry.isFile()) {
        files.push({ from, to });
      } else if (entry.isSymbolicLink()) {
        // A link named `.github` to a directory holding `hooks/` would show that directory as
        // `.github/hooks`, which the rule `.github/hooks/` removes only under its own name.
        if (rules.some((rule) => rule.leadsTo(path))) {
          result.removed.push(relativePath);
          continue;
        }
        const inside = await resolveInside(root, from);
        if (inside === null) {
          result.droppedLinks.push(relativePath);
          continue;
        }
        const linkTarget = relative(dirname(to), join(options.target, inside));
        await symlink(linkTarget === "" ? "." : linkTarget, to);
        await giveToOwner(to, options.owner);
      }
    }
    // A few files at once: one at a time, a tree of small files took seconds per thousand.
    for (let start = 0; start < files.length; start += FILES_AT_ONCE) {
      // Settled, not raced: a failure must not leave copies still writing into a tree
      // that is about to be deleted.
      const outcomes = await Promise.allSettled(
        files.slice(start, start + FILES_AT_ONCE).map(async ({ from, to }) => {
          await copyRegularFile(from, to, reserve);
          await giveToOwner(to, options.owner);
        }),
      );
      const failed = outcomes.find((outcome) => outcome.status === "rejected");
      if (failed !== undefined) {
        throw failed.reason;
      }
    }
  }
  return result;
}

const FILES_AT_ONCE = 16;
// Read whole below this size; streamed above it, so a large file never sits in memory.
const WHOLE_FILE_BYTES = 4 * 1024 * 1024;

interface RemovalRule {
  segments: string[];
  matches(path: readonly string[]): boolean;
  /** Whether `path` stands where the rule's leading segments are (`.github` for `.github/hooks`). */
  leadsTo(path: readonly string[]): boolean;
}

function compileRule(text: string): RemovalRule {
  const anchored = text.startsWith("/");
  const segments = text.split("/").filter((segment) => segment !== "" && segment !== ".");
  return {
    segments,
    matches(path) {
      if (anchored) {
        return path.length === segments.length && endsWith(path, segments);
      }
      return path.length >= segments.length && endsWith(path, segments);
    },
    leadsTo(path) {
      for (let count = 1; count < segments.length; count++) {
        const leading = segments.slice(0, count);
        const placed = anchored ? path.length === count : path.length >= count;
        if (placed && endsWith(path, leading)) return true;
      }
      return false;
    },
  };
}

function endsWith(path: readonly string[], tail: readonly string[]): boolean {
  const offset = path.length - tail.length;
  return tail.every((segment, index) => path[offset + index] === segment);
}

/**
 * Copies one regular file without following a link (the entry was a file when listed;
 * O_NOFOLLOW keeps it from having become a link since). Its size is reserved against the
 * copy's byte bound before anything is written.
 */
async function copyRegularFile(
  from: string,
  to: string,
  reserve: (bytes: number) => void,
): Promise<void> {
  const input = await open(from, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const stats = await input.stat();
    if (!stats.isFile()) {
      return;
    }
    reserve(stats.size);
    // Executable bits survive (a reviewer may want to know a script is executable); nothing else.
    const mode = (stats.mode & 0o111) !== 0 ? 0o755 : 0o644;
    if (stats.size <= WHOLE_FILE_BYTES) {
      await writeFile(to, await input.readFile(), { flag: "wx", mode });
      return;
    }
    const output = await open(to, "wx", mode);
    await pipeline(input.createReadStream({ autoClose: false }), output.createWriteStream());
  } finally {
    await input.close();
  }
}

/** The link's fully resolved target relative to the root, or null when dangling or outside. */
async function resolveInside(root: string, link: string): Promise<string | null> {
  try {
    // A link to a link is resolved through: the chain must end inside too.
    const resolved = await realpath(link);
    if (resolved === root) {
      return "";
    }
    return resolved.startsWith(root + sep) ? relative(root, resolved) : null;
  } catch {
    return null;
  }
}

async function giveToOwner(
  path: string,
  owner: { uid: number; gid: number } | undefined,
): Promise<void> {
  if (owner !== undefined) {
    await lchown(path, owner.uid, owner.gid);
  }
}
