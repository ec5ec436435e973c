import { readFileSync } from "node:fs";
import fc from "fast-check";
import parseDiff from "parse-diff";
import { describe, expect, it } from "vitest";
import type { DiffFile } from "../../src/diff/diff-file.js";
import { parseUnifiedDiff } from "../../src/diff/parse-unified-diff.js";
import { renderDiffFile } from "../../src/diff/render-diff-file.js";
import { arbitraryDiffFile } from "./arbitrary-diff-file.js";

/** The facts both parsers must agree on, in parse-diff's vocabulary. */
function ours(files: DiffFile[]) {
  return files.map((file) => ({
    path: file.path,
    additions: file.additions,
    deletions: file.deletions,
    chunks: file.hunks.map((hunk) => ({
      oldStart: hunk.oldStart,
      oldLines: hunk.oldCount,
      newStart: hunk.newStart,
      newLines: hunk.newCount,
      changes: hunk.lines.map((line) =>
        line.type === "add"
          ? { type: "add", ln: line.newLine, content: `+${line.content}` }
          : line.type === "delete"
            ? { type: "del", ln: line.oldLine, content: `-${line.content}` }
            : { type: "normal", ln1: line.oldLine, ln2: line.newLine, content: ` ${line.content}` },
      ),
    })),
  }));
}

function theirs(files: parseDiff.File[]) {
  return files.map((file) => ({
    path: file.to === "/dev/null" ? file.from : file.to,
    additions: file.additions,
    deletions: file.deletions,
    chunks: file.chunks.map((chunk) => ({
      oldStart: chunk.oldStart,
      oldLines: chunk.oldLines,
      newStart: chunk.newStart,
      newLines: chunk.newLines,
      changes: chunk.changes
        // parse-diff repeats the previous change for a `\ No newline` marker.
        .filter((change) => !change.content.startsWith("\\"))
        .map((change) =>
          change.type === "normal"
            ? { type: "normal", ln1: change.ln1, ln2: change.ln2, content: change.content }
            : { type: change.type, ln: change.ln, content: change.content },
        ),
    })),
  }));
}

describe("parseUnifiedDiff against the parse-diff package", () => {
  it("agrees on files, hunks and every line number of generated diffs", () => {
    fc.assert(
      fc.property(
        fc.array(arbitraryDiffFile({ simple: true }), { minLength: 1, maxLength: 6 }),
        (files) => {
          const text = files.map((file) => renderDiffFile(file)).join("");
          const expected = theirs(parseDiff(text));
          expect(ours(parseUnifiedDiff(text))).toEqual(expected);
          // Guards the comparison itself: it must have seen the generated lines.
          expect(expected.flatMap((file) => file.chunks).length).toBe(
            files.flatMap((file) => file.hunks).length,
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it("agrees on a real git diff, for the files parse-diff can name", () => {
    const text = readFileSync(new URL("fixtures/github-pr.diff", import.meta.url), "utf8")
      // parse-diff keeps carriage returns in content; compare LF-only text.
      .replace(/\r\n/g, "\n");
    const withHunks = (file: { chunks: unknown[] }) => file.chunks.length > 0;
    const mine = ours(parseUnifiedDiff(text)).filter(withHunks);
    const reference = theirs(parseDiff(text)).filter(withHunks);
    const nameable = (path: string | undefined) => path !== undefined && !/[ "]/.test(path);
    expect(mine.filter((file) => nameable(file.path))).toEqual(
      reference.filter((file) => nameable(file.path)),
    );
    expect(mine.length).toBe(reference.length);
  });
});
