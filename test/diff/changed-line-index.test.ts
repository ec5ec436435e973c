import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ChangedLineIndex } from "../../src/diff/changed-line-index.js";
import type { DiffFile } from "../../src/diff/diff-file.js";
import { parseUnifiedDiff } from "../../src/diff/parse-unified-diff.js";
import { arbitraryDiffFile } from "./arbitrary-diff-file.js";

// src/server.ts in the fixture: hunk 0 covers new lines 3–12 (adds 6–9), hunk 1 covers 29–32 (adds 32).
const SERVER = "src/server.ts";
const files = parseUnifiedDiff(
  readFileSync(new URL("fixtures/github-pr.diff", import.meta.url), "utf8"),
);
const index = ChangedLineIndex.fromFiles(files);

describe("ChangedLineIndex lookups", () => {
  it("counts context lines as inside their hunk, not as added", () => {
    expect(index.hunkAt(SERVER, 3)).toEqual({ hunkIndex: 0, start: 3, end: 12 });
    expect(index.isInHunk(SERVER, 12)).toBe(true);
    expect(index.isAddedLine(SERVER, 3)).toBe(false);
    expect(index.isAddedLine(SERVER, 6)).toBe(true);
    expect(index.isAddedLine(SERVER, 9)).toBe(true);
    expect(index.isAddedLine(SERVER, 10)).toBe(false);
    expect(index.hunkAt(SERVER, 32)).toEqual({ hunkIndex: 1, start: 29, end: 32 });
  });

  it("puts lines between, before and after hunks outside", () => {
    for (const line of [1, 2, 13, 20, 28, 33, 1000]) {
      expect(index.hunkAt(SERVER, line)).toBeNull();
    }
  });

  it("keys a renamed file by its new path and gives deleted and binary files no RIGHT side", () => {
    expect(index.isInHunk("docs/handbook.md", 7)).toBe(true);
    expect(index.hasFile("docs/guide.md")).toBe(false);
    expect(index.hasFile("src/legacy.ts")).toBe(false);
    expect(index.hunkAt("src/legacy.ts", 1)).toBeNull();
    expect(index.hasFile("assets/logo.png")).toBe(false);
    expect(index.hasFile("src/unknown.ts")).toBe(false);
  });

  it("ignores a pure-deletion hunk, which has no RIGHT-side line", () => {
    const [file] = parseUnifiedDiff(
      "diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -5,2 +4,0 @@\n-x\n-y\n@@ -20 +18 @@\n-a\n+b\n",
    );
    const single = ChangedLineIndex.fromFiles(file === undefined ? [] : [file]);
    expect(single.hunkAt("f", 4)).toBeNull();
    expect(single.hunkAt("f", 18)).toEqual({ hunkIndex: 1, start: 18, end: 18 });
  });

  it("rejects line numbers that are not positive integers", () => {
    for (const line of [0, -3, 4.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(index.hunkAt(SERVER, line)).toBeNull();
      expect(index.isAddedLine(SERVER, line)).toBe(false);
    }
  });
});

describe("ChangedLineIndex placements", () => {
  it("validates GitHub's rule: one hunk, start_line only when smaller than line", () => {
    expect(index.isValidPlacement(SERVER, { line: 12, startLine: 3 })).toBe(true);
    expect(index.isValidPlacement(SERVER, { line: 12 })).toBe(true);
    expect(index.isValidPlacement(SERVER, { line: 12, startLine: 12 })).toBe(false);
    expect(index.isValidPlacement(SERVER, { line: 12, startLine: 14 })).toBe(false);
    expect(index.isValidPlacement(SERVER, { line: 13 })).toBe(false);
  });

  it("rejects a range spanning two hunks", () => {
    expect(index.isValidPlacement(SERVER, { line: 30, startLine: 10 })).toBe(false);
  });

  it("places a range inside one hunk as is, with start_line only when smaller", () => {
    expect(index.placeComment(SERVER, { start: 6, end: 9 })).toEqual({
      line: 9,
      startLine: 6,
      clamped: false,
    });
    expect(index.placeComment(SERVER, { start: 7, end: 7 })).toEqual({ line: 7, clamped: false });
    expect(index.placeComment(SERVER, { start: 9, end: 6 })).toEqual({
      line: 9,
      startLine: 6,
      clamped: false,
    });
  });

  it("clamps a range that leaves its anchor's hunk to that hunk", () => {
    // Spans both hunks: only the first (the anchor's) is kept.
    expect(index.placeComment(SERVER, { start: 10, end: 30 })).toEqual({
      line: 12,
      startLine: 10,
      clamped: true,
    });
    // Ends in a hunk, starts before it: the anchor decides.
    expect(index.placeComment(SERVER, { start: 1, end: 4 })).toBeNull();
    expect(index.placeComment(SERVER, { start: 1, end: 4, anchor: 4 })).toEqual({
      line: 4,
      startLine: 3,
      clamped: true,
    });
    // Clamped down to one line: no start_line.
    expect(index.placeComment(SERVER, { start: 12, end: 20 })).toEqual({ line: 12, clamped: true });
  });

  it("returns null when the anchor is between hunks or outside the range", () => {
    expect(index.placeComment(SERVER, { start: 15, end: 30 })).toBeNull();
    expect(index.placeComment(SERVER, { start: 6, end: 9, anchor: 20 })).toBeNull();
    expect(index.placeComment("src/legacy.ts", { start: 1, end: 1 })).toBeNull();
    expect(index.placeComment(SERVER, { start: 0, end: 5 })).toBeNull();
  });
});

/** Brute force: the RIGHT-side line sets of each hunk, straight from the lines. */
function model(file: DiffFile) {
  const hunks = file.hunks.map(
    (hunk) => new Set(hunk.lines.flatMap((line) => (line.newLine === null ? [] : [line.newLine]))),
  );
  const added = new Set(
    file.hunks.flatMap((hunk) =>
      hunk.lines.flatMap((line) =>
        line.type === "add" && line.newLine !== null ? [line.newLine] : [],
      ),
    ),
  );
  return { hunks, added };
}

describe("ChangedLineIndex against a brute-force model (property)", () => {
  it("agrees on every line, and every placement it returns is valid", () => {
    fc.assert(
      fc.property(
        arbitraryDiffFile(),
        fc.integer({ min: 1, max: 80 }),
        fc.integer({ min: 0, max: 20 }),
        (file, start, length) => {
          const single = ChangedLineIndex.fromFiles([file]);
          const { hunks, added } = model(file);
          const rightSide = file.newPath !== null;
          const lines = Array.from({ length: 90 }, (_, offset) => offset + 1);
          expect(lines.map((line) => single.hunkAt(file.path, line)?.hunkIndex ?? -1)).toEqual(
            lines.map((line) => (rightSide ? hunks.findIndex((set) => set.has(line)) : -1)),
          );
          expect(lines.filter((line) => single.isAddedLine(file.path, line))).toEqual(
            lines.filter((line) => rightSide && added.has(line)),
          );
          const placement = single.placeComment(file.path, { start, end: start + length });
          const anchorHunk = rightSide ? hunks.findIndex((lines) => lines.has(start)) : -1;
          expect(placement === null).toBe(anchorHunk === -1);
          if (placement !== null) {
            const first = placement.startLine ?? placement.line;
            expect(first).toBeLessThanOrEqual(placement.line);
            const covered = Array.from(
              { length: placement.line - first + 1 },
              (_, offset) => first + offset,
            );
            expect(covered.every((line) => hunks[anchorHunk]?.has(line) === true)).toBe(true);
            expect(first <= start && placement.line >= start).toBe(true);
            expect(single.isValidPlacement(file.path, placement)).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
