import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseUnifiedDiff } from "../../src/diff/parse-unified-diff.js";
import { renderDiffFile } from "../../src/diff/render-diff-file.js";
import { arbitraryDiffFile } from "./arbitrary-diff-file.js";

describe("renderDiffFile", () => {
  it("round-trips random files through render and parse (property)", () => {
    fc.assert(
      fc.property(fc.array(arbitraryDiffFile(), { maxLength: 6 }), (files) => {
        const text = files.map((file) => renderDiffFile(file)).join("");
        expect(parseUnifiedDiff(text)).toEqual(files);
      }),
      { numRuns: 300 },
    );
  });

  it("round-trips with unescaped UTF-8 paths too (core.quotePath=false)", () => {
    fc.assert(
      fc.property(fc.array(arbitraryDiffFile(), { maxLength: 4 }), (files) => {
        const text = files.map((file) => renderDiffFile(file, { quoteNonAscii: false })).join("");
        expect(parseUnifiedDiff(text)).toEqual(files);
      }),
      { numRuns: 100 },
    );
  });

  it("reproduces git's own output for the text files of a real diff", () => {
    const original = readFileSync(new URL("fixtures/github-pr.diff", import.meta.url), "utf8");
    const withoutIndexLines = original.replace(/^index .*\n/gm, "");
    const rendered = parseUnifiedDiff(original)
      .map((file) => renderDiffFile(file))
      .join("");
    // Only CRLF content differs: the parser drops carriage returns.
    expect(rendered).toBe(withoutIndexLines.replace(/\r\n/g, "\n"));
  });

  it("quotes non-ASCII paths like git, or keeps them as UTF-8 on request", () => {
    const [file] = parseUnifiedDiff(
      'diff --git "a/sp\\303\\251cial name.ts" "b/sp\\303\\251cial name.ts"\nnew file mode 100644\n',
    );
    if (file === undefined) throw new Error("no file parsed");
    expect(renderDiffFile(file).split("\n")[0]).toBe(
      'diff --git "a/sp\\303\\251cial name.ts" "b/sp\\303\\251cial name.ts"',
    );
    expect(renderDiffFile(file, { quoteNonAscii: false }).split("\n")[0]).toBe(
      "diff --git a/spécial name.ts b/spécial name.ts",
    );
  });
});
