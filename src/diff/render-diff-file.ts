import type { DiffFile, DiffHunk } from "./diff-file.js";
import { quoteGitPath } from "./quote-git-path.js";

export interface RenderDiffFileOptions {
  /** Octal-escape non-ASCII path bytes like git's default `core.quotePath`. Default true. */
  quoteNonAscii?: boolean;
}

export const NO_NEWLINE = "\\ No newline at end of file\n";

/**
 * Renders a parsed file back into `git diff` form (headers, hunks, `\ No newline` markers), so
 * that `parseUnifiedDiff(renderDiffFile(file))` gives the file back. `index` lines are not
 * written: blob hashes are not kept.
 */
export function renderDiffFile(file: DiffFile, options: RenderDiffFileOptions = {}): string {
  let text = renderFileHeader(file, options);
  for (const hunk of file.hunks) text += renderHunk(hunk);
  return text;
}

/** One hunk: its `@@` header and its lines, with `\\ No newline` markers. */
export function renderHunk(hunk: DiffHunk): string {
  let text = renderHunkHeader(hunk);
  for (const line of hunk.lines) {
    const marker = line.type === "add" ? "+" : line.type === "delete" ? "-" : " ";
    text += `${marker}${line.content}\n`;
    if (line.noNewlineAtEnd === true) text += NO_NEWLINE;
  }
  return text;
}

/** Everything before the first hunk: `diff --git`, extended headers, `---`/`+++` or `Binary files`. */
export function renderFileHeader(file: DiffFile, options: RenderDiffFileOptions = {}): string {
  const quote = (path: string): string => quoteGitPath(path, options);
  const oldName = file.oldPath ?? file.path;
  const newName = file.newPath ?? file.path;
  let text = `diff --git ${quote(`a/${oldName}`)} ${quote(`b/${newName}`)}\n`;

  if (file.status === "added") {
    if (file.newMode !== null) text += `new file mode ${file.newMode}\n`;
  } else if (file.status === "deleted") {
    if (file.oldMode !== null) text += `deleted file mode ${file.oldMode}\n`;
  } else if (file.oldMode !== null && file.newMode !== null) {
    text += `old mode ${file.oldMode}\nnew mode ${file.newMode}\n`;
  }
  if (file.status === "renamed" || file.status === "copied") {
    const verb = file.status === "renamed" ? "rename" : "copy";
    if (file.similarity !== null) text += `similarity index ${file.similarity}%\n`;
    text += `${verb} from ${quote(oldName)}\n${verb} to ${quote(newName)}\n`;
  }

  const minus = file.oldPath === null ? "/dev/null" : quote(`a/${file.oldPath}`);
  const plus = file.newPath === null ? "/dev/null" : quote(`b/${file.newPath}`);
  if (file.binary) return `${text}Binary files ${minus} and ${plus} differ\n`;
  if (file.hunks.length === 0) return text;
  return `${text}--- ${minus}${tabIfSpaced(file.oldPath)}\n+++ ${plus}${tabIfSpaced(file.newPath)}\n`;
}

export function renderHunkHeader(hunk: DiffHunk): string {
  const section = hunk.section === "" ? "" : ` ${hunk.section}`;
  return `@@ -${range(hunk.oldStart, hunk.oldCount)} +${range(hunk.newStart, hunk.newCount)} @@${section}\n`;
}

/** git ends a `---`/`+++` name holding a space with a tab (quoted or not), as `diff -u` does. */
function tabIfSpaced(path: string | null): string {
  return path?.includes(" ") === true ? "\t" : "";
}

/** git omits the count when it is 1. */
function range(start: number, count: number): string {
  return count === 1 ? `${start}` : `${start},${count}`;
}
