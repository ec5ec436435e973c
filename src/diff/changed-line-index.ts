import type { DiffFile } from "./diff-file.js";

/** A hunk's extent on the new (RIGHT) side, lines inclusive. */
export interface HunkRange {
  /** Index of the hunk in its DiffFile's `hunks`. */
  hunkIndex: number;
  start: number;
  end: number;
}

/** Where an inline review comment may go: GitHub's `line` (the end) and `start_line`, side RIGHT. */
export interface InlinePlacement {
  line: number;
  /** Present only when smaller than `line`, as GitHub requires. */
  startLine?: number;
  /** True when the finding's range was shrunk to fit its anchor's hunk. */
  clamped: boolean;
}

export interface FindingRange {
  start: number;
  end: number;
  /** The line the finding is about; defaults to `start` (a finding's `line`). */
  anchor?: number;
}

/** Per-path sorted hunk ranges and added lines of the new side. */
interface FileLines {
  starts: Int32Array;
  ends: Int32Array;
  hunkIndexes: Int32Array;
  added: Int32Array;
}

/**
 * Answers "can an inline comment go here?" for the new side of a diff. Files are keyed by their
 * new path (a renamed file by its new name); deleted and binary files have no RIGHT-side lines and
 * are absent. A hunk's RIGHT side is the contiguous range [newStart, newStart + newCount - 1]:
 * its added and context lines. Lookups are binary searches over each file's sorted hunks.
 */
export class ChangedLineIndex {
  private readonly files: Map<string, FileLines>;

  private constructor(files: Map<string, FileLines>) {
    this.files = files;
  }

  static fromFiles(files: readonly DiffFile[]): ChangedLineIndex {
    const collected = new Map<string, { ranges: HunkRange[]; added: number[] }>();
    for (const file of files) {
      if (file.newPath === null) continue;
      let entry = collected.get(file.newPath);
      if (entry === undefined) {
        entry = { ranges: [], added: [] };
        collected.set(file.newPath, entry);
      }
      file.hunks.forEach((hunk, hunkIndex) => {
        if (hunk.newCount === 0) return; // a pure deletion has no RIGHT-side line
        entry.ranges.push({
          hunkIndex,
          start: hunk.newStart,
          end: hunk.newStart + hunk.newCount - 1,
        });
        for (const line of hunk.lines) {
          if (line.type === "add" && line.newLine !== null) entry.added.push(line.newLine);
        }
      });
    }
    const indexed = new Map<string, FileLines>();
    for (const [path, { ranges, added }] of collected) {
      if (ranges.length === 0) continue;
      ranges.sort((left, right) => left.start - right.start);
      indexed.set(path, {
        starts: Int32Array.from(ranges, (range) => range.start),
        ends: Int32Array.from(ranges, (range) => range.end),
        hunkIndexes: Int32Array.from(ranges, (range) => range.hunkIndex),
        added: Int32Array.from(added).sort(),
      });
    }
    return new ChangedLineIndex(indexed);
  }

  /** Whether the path has at least one hunk with RIGHT-side lines. */
  hasFile(path: string): boolean {
    return this.files.has(path);
  }

  /** The hunk whose RIGHT side holds `line`, or null (between hunks, outside the file, bad line). */
  hunkAt(path: string, line: number): HunkRange | null {
    const file = this.files.get(path);
    if (file === undefined || !isLineNumber(line)) return null;
    const position = lastAtOrBelow(file.starts, line);
    if (position < 0) return null;
    const end = file.ends[position] ?? 0;
    if (line > end) return null;
    return {
      hunkIndex: file.hunkIndexes[position] ?? 0,
      start: file.starts[position] ?? 0,
      end,
    };
  }

  isInHunk(path: string, line: number): boolean {
    return this.hunkAt(path, line) !== null;
  }

  isAddedLine(path: string, line: number): boolean {
    const file = this.files.get(path);
    if (file === undefined || !isLineNumber(line)) return false;
    const position = lastAtOrBelow(file.added, line);
    return position >= 0 && file.added[position] === line;
  }

  /** GitHub's own rule: every line of [startLine ?? line, line] in one hunk, startLine < line. */
  isValidPlacement(path: string, placement: { line: number; startLine?: number }): boolean {
    const hunk = this.hunkAt(path, placement.line);
    if (hunk === null) return false;
    const startLine = placement.startLine;
    if (startLine === undefined) return true;
    return isLineNumber(startLine) && startLine < placement.line && startLine >= hunk.start;
  }

  /**
   * Where to post a finding about lines [start, end] (swapped if reversed). Policy: the anchor
   * line (the finding's own `line` unless given) must lie in a hunk, otherwise null: a comment
   * must sit on the line it talks about, and the finding goes in the review body instead. The
   * range is then clamped to that hunk (`clamped: true`), which drops the part outside it, in
   * particular any part lying in another hunk, since GitHub rejects ranges spanning hunks.
   */
  placeComment(path: string, range: FindingRange): InlinePlacement | null {
    const low = Math.min(range.start, range.end);
    const high = Math.max(range.start, range.end);
    const anchor = range.anchor ?? low;
    if (!isLineNumber(low) || !isLineNumber(high) || anchor < low || anchor > high) return null;
    const hunk = this.hunkAt(path, anchor);
    if (hunk === null) return null;
    const startLine = Math.max(low, hunk.start);
    const line = Math.min(high, hunk.end);
    const clamped = startLine !== low || line !== high;
    return startLine < line ? { line, startLine, clamped } : { line, clamped };
  }
}

function isLineNumber(value: number): boolean {
  return Number.isInteger(value) && value > 0;
}

/** Index of the last element ≤ value in an ascending array, or -1. */
function lastAtOrBelow(sorted: Int32Array, value: number): number {
  let low = 0;
  let high = sorted.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle] ?? 0) <= value) {
      found = middle;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found;
}
