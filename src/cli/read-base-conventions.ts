import {
  CONVENTION_LIMITS,
  type ConventionFile,
  conventionReads,
  conventionText,
  isConventionPath,
} from "../run/index.js";
import type { BoundGit } from "./run-git.js";

/** A blob larger than this is not read at all (git would hand all of it over): it is reported. */
const MAX_READ_BYTES = 8 * 1024 * 1024;

export interface ReadBaseConventionsOptions {
  /** A file git would not give, for one line on stderr; the review goes on without it. */
  onError?: (path: string, reason: string) => void;
  fileBytes?: number;
  /** Files read at most; the applying ones past it are returned `leftOut`. */
  maxFiles?: number;
  /** The change's paths (a rename's old one too): whose directories' conventions are read. */
  changedPaths?: readonly string[];
}

/**
 * The convention files of the base commit that govern the changed paths (AGENTS.md in their
 * directories and above, CONTRIBUTING.md, rule files… see convention-reads.ts), as the app reads
 * them from a pull request's base: never the head or the working tree, whose copies are part of
 * the change under review. One listing of the base's tree, then only the files that apply. A
 * file missing from the base is no convention; one git fails to give is reported and left out.
 * Never throws.
 */
export async function readBaseConventions(
  git: BoundGit,
  baseSha: string,
  options: ReadBaseConventionsOptions = {},
): Promise<ConventionFile[]> {
  const fileBytes = options.fileBytes ?? CONVENTION_LIMITS.fileBytes;
  let listing: string;
  try {
    // --full-tree: paths from the repository's root, wherever git runs.
    listing = await git(["ls-tree", "-r", "-z", "-l", "--full-tree", baseSha]);
  } catch (error) {
    options.onError?.("the base commit", reason(error));
    return [];
  }
  const entries = new Map<string, { object: string; size: number }>();
  for (const record of listing.split("\0")) {
    // <mode> SP <type> SP <object> SP <size> TAB <path>
    const match = /^(\d+) (\w+) ([0-9a-f]+) +(\d+|-)\t(.*)$/s.exec(record);
    if (match === null) continue;
    const [, mode, type, object, size, path] = match;
    // Regular files only: a link's blob is its target's name, not the team's text.
    if (type !== "blob" || (mode !== "100644" && mode !== "100755")) continue;
    if (object !== undefined && path !== undefined && isConventionPath(path))
      entries.set(path, { object, size: Number(size) });
  }
  const reads = conventionReads(
    [...entries.keys()],
    options.changedPaths ?? [],
    options.maxFiles ?? CONVENTION_LIMITS.files,
  );
  const files: ConventionFile[] = [];
  for (const path of reads.paths) {
    const entry = entries.get(path);
    if (entry === undefined) continue;
    if (entry.size > MAX_READ_BYTES) {
      options.onError?.(path, `${entry.size} bytes, over the ${MAX_READ_BYTES} read`);
      continue;
    }
    try {
      const text = await git(["cat-file", "blob", entry.object]);
      files.push({ path, ...conventionText(Buffer.from(text, "utf8"), fileBytes) });
    } catch (error) {
      options.onError?.(path, reason(error));
    }
  }
  return [
    ...files,
    ...reads.leftOut.map((path) => ({ path, text: "", cut: false, leftOut: true })),
  ];
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
