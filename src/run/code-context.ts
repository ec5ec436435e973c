import { createHash } from "node:crypto";
import { lstat, readFile } from "node:fs/promises";
import { isAbsolute, join, relative, sep } from "node:path";

/** Lines of a finding's range read: a long range is compared by its start. */
const MAX_LINES = 20;
const MAX_FILE_BYTES = 2 * 1024 * 1024;

/**
 * The code at `line..endLine` of `path` in the head's tree, normalized (each line trimmed, runs of
 * whitespace one space, blank lines dropped) and hashed: the same code moved, re-indented or in
 * another file gives the same value. Null when the file or the lines cannot be read, or are blank:
 * a missing context matches nothing.
 */
export async function codeContext(
  workspaceDir: string,
  path: string,
  line: number,
  endLine: number,
): Promise<string | null> {
  const within = relative(workspaceDir, join(workspaceDir, path));
  if (within === "" || within === ".." || within.startsWith(`..${sep}`) || isAbsolute(within)) {
    return null;
  }
  const target = join(workspaceDir, within);
  try {
    const info = await lstat(target);
    if (!info.isFile() || info.size > MAX_FILE_BYTES) return null;
    const lines = (await readFile(target, "utf8")).split(/\r?\n/);
    const last = Math.min(endLine, line + MAX_LINES - 1);
    const code = lines
      .slice(Math.max(0, line - 1), Math.max(0, last))
      .map((text) => text.trim().replace(/\s+/g, " "))
      .filter((text) => text !== "");
    if (code.length === 0) return null;
    return createHash("sha256").update(code.join("\n")).digest("hex");
  } catch {
    return null;
  }
}
