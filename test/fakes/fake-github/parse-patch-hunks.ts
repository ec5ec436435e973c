import type { Side } from "./types.js";

export interface PatchHunk {
  /** The `@@` line and the lines after it, as review comments' `diff_hunk` shows them. */
  lines: string[];
  /** Position of the `@@` line itself. */
  headerPosition: number;
  /** Lines a comment may target on each side (context lines count on both). */
  right: Set<number>;
  left: Set<number>;
  /** `side:line` → position counted from the file's first `@@` line. */
  positions: Map<string, number>;
}

const hunkHeader = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** Reads a GitHub `patch` field into hunks, for review-comment validation. */
export function parsePatchHunks(patch: string): PatchHunk[] {
  const hunks: PatchHunk[] = [];
  let current: PatchHunk | undefined;
  let oldLine = 0;
  let newLine = 0;
  let position = -1;
  for (const line of patch.split("\n")) {
    position++;
    const header = hunkHeader.exec(line);
    if (header !== null) {
      current = {
        lines: [line],
        headerPosition: position,
        right: new Set(),
        left: new Set(),
        positions: new Map(),
      };
      hunks.push(current);
      oldLine = Number(header[1]);
      newLine = Number(header[3]);
      continue;
    }
    if (current === undefined) continue;
    current.lines.push(line);
    if (line.startsWith("+")) {
      mark(current, "RIGHT", newLine++, position);
    } else if (line.startsWith("-")) {
      mark(current, "LEFT", oldLine++, position);
    } else if (line.startsWith(" ") || line === "") {
      mark(current, "LEFT", oldLine++, position);
      mark(current, "RIGHT", newLine++, position);
    }
  }
  return hunks;
}

function mark(hunk: PatchHunk, side: Side, line: number, position: number): void {
  (side === "RIGHT" ? hunk.right : hunk.left).add(line);
  hunk.positions.set(`${side}:${line}`, position);
}
