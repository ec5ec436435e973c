import type { DiffFile } from "./diff-file.js";

/** Where an old-side line range lands on the new side, or `touched` when the patch changed it. */
export type MappedLines = { line: number; endLine: number } | "touched";

/**
 * Follows lines `line..endLine` of a file's old side through its patch. A deleted line in the
 * range, or a line added inside it or right next to it (a guard added just before the flagged
 * line is a likely fix), touches it; otherwise the range moves by the lines added and deleted
 * above it. A deleted file, a binary one, or one without hunks to follow is touched: nothing
 * proves its lines were left alone.
 */
export function mapLinesThroughPatch(file: DiffFile, line: number, endLine: number): MappedLines {
  if (file.newPath === null || file.binary || file.hunks.length === 0) return "touched";
  const last = Math.max(line, endLine);
  let delta = 0;
  for (const hunk of file.hunks) {
    // The old line an addition comes after (0: before the first line).
    let previousOld = hunk.oldStart - 1;
    for (const entry of hunk.lines) {
      if (entry.type === "context") {
        previousOld = entry.oldLine ?? previousOld;
      } else if (entry.type === "delete") {
        const old = entry.oldLine ?? previousOld + 1;
        if (old >= line && old <= last) return "touched";
        if (old < line) delta--;
        previousOld = old;
      } else {
        if (previousOld >= line - 1 && previousOld <= last) return "touched";
        if (previousOld < line) delta++;
      }
    }
  }
  return { line: line + delta, endLine: last + delta };
}
