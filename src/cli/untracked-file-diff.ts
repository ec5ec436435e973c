import { lstat, open, readlink } from "node:fs/promises";
import { join } from "node:path";
import type { DiffFile, DiffLine } from "../diff/index.js";
import { renderDiffFile } from "../diff/index.js";

/** git's own test: a NUL byte in the first 8000 bytes makes a file binary. */
const BINARY_SNIFF_BYTES = 8000;

export type UntrackedFileDiff =
  | { kind: "diff"; text: string }
  /** Over the size limit: not read, listed as not reviewed. */
  | { kind: "too-large" }
  /** Gone since it was listed, or not a file git would track (a socket, a FIFO). */
  | { kind: "skipped" };

/**
 * The "new file" diff git would show for an untracked file, built without touching the index
 * (`git add -N` would change the user's staging area). Symlinks read as their target, like git.
 */
export async function untrackedFileDiff(
  root: string,
  path: string,
  maxBytes: number,
): Promise<UntrackedFileDiff> {
  const absolute = join(root, path);
  let content: Buffer;
  let mode: string;
  try {
    const stat = await lstat(absolute);
    if (stat.isSymbolicLink()) {
      content = Buffer.from(await readlink(absolute), "utf8");
      mode = "120000";
    } else if (stat.isFile()) {
      if (stat.size > maxBytes) return { kind: "too-large" };
      content = await readAtMost(absolute, maxBytes + 1);
      if (content.length > maxBytes) return { kind: "too-large" };
      mode = (stat.mode & 0o111) === 0 ? "100644" : "100755";
    } else {
      return { kind: "skipped" };
    }
  } catch (error) {
    if ((error as { code?: unknown }).code === "ENOENT") return { kind: "skipped" };
    throw error;
  }
  const binary = content.subarray(0, BINARY_SNIFF_BYTES).includes(0);
  const lines = binary ? [] : addedLines(content.toString("utf8"));
  const file: DiffFile = {
    path,
    oldPath: null,
    newPath: path,
    status: "added",
    binary,
    oldMode: null,
    newMode: mode,
    similarity: null,
    hunks:
      lines.length === 0
        ? []
        : [{ oldStart: 0, oldCount: 0, newStart: 1, newCount: lines.length, section: "", lines }],
    additions: lines.length,
    deletions: 0,
  };
  return { kind: "diff", text: renderDiffFile(file) };
}

/** Reads no more than `limit` bytes, so a file that grew after its stat cannot blow the memory. */
async function readAtMost(path: string, limit: number): Promise<Buffer> {
  const handle = await open(path, "r");
  try {
    const buffer = Buffer.alloc(limit);
    let filled = 0;
    while (filled < limit) {
      const { bytesRead } = await handle.read(buffer, filled, limit - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return buffer.subarray(0, filled);
  } finally {
    await handle.close();
  }
}

function addedLines(text: string): DiffLine[] {
  if (text === "") return [];
  const endsWithNewline = text.endsWith("\n");
  const contents = (endsWithNewline ? text.slice(0, -1) : text).split("\n");
  return contents.map((content, index) => {
    const line: DiffLine = { type: "add", content, oldLine: null, newLine: index + 1 };
    if (!endsWithNewline && index === contents.length - 1) line.noNewlineAtEnd = true;
    return line;
  });
}
