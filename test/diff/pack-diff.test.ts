import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { DiffFile } from "../../src/diff/diff-file.js";
import { packDiff } from "../../src/diff/pack-diff.js";
import { parseUnifiedDiff } from "../../src/diff/parse-unified-diff.js";
import { renderDiffFile } from "../../src/diff/render-diff-file.js";
import { arbitraryDiffFile } from "./arbitrary-diff-file.js";

/** A modified text file whose rendered diff grows with `addedLines`. */
function textFile(path: string, addedLines: number): DiffFile {
  const [file] = parseUnifiedDiff(
    `diff --git a/${path} b/${path}\n--- a/${path}\n+++ b/${path}\n@@ -1 +1,${addedLines + 1} @@\n context\n${"+added line\n".repeat(addedLines)}`,
  );
  if (file === undefined) throw new Error("fixture did not parse");
  return file;
}

const sizeOf = (file: DiffFile): number => renderDiffFile(file, { quoteNonAscii: false }).length;

describe("packDiff", () => {
  it("leaves lockfiles, generated and binary files out, saying why", () => {
    const files = parseUnifiedDiff(
      readFileSync(new URL("fixtures/github-pr.diff", import.meta.url), "utf8"),
    );
    const lock = textFile("package-lock.json", 3);
    const generated = textFile("src/gen/client.ts", 3);
    const built = textFile("build/app.js", 3);
    const evidence = { generated: new Set(["src/gen/client.ts"]), textual: new Set<string>() };
    const packed = packDiff([...files, lock, generated, built], 1_000_000, { evidence });
    expect(packed.omitted).toEqual([
      { path: "assets/logo.png", reason: "binary" },
      { path: "package-lock.json", reason: "lockfile" },
      { path: "src/gen/client.ts", reason: "generated" },
    ]);
    // A `build/` folder is no evidence: the file is packed.
    expect(packed.included).toContain("build/app.js");
    expect(packed.included).toHaveLength(files.length);
    expect(packed.text).not.toContain("diff --git a/package-lock.json");
    expect(packed.text).toContain("# - package-lock.json (lockfile)");
    expect(packed.text).toContain("diff --git a/src/spécial name.ts b/src/spécial name.ts");
  });

  it("keeps whole files, source before tests before docs, and the original order in the text", () => {
    const docs = textFile("docs/guide.md", 2);
    const test = textFile("test/app.test.ts", 2);
    const source = textFile("src/app.ts", 2);
    const budget = sizeOf(source) + sizeOf(test) + 5;
    const packed = packDiff([docs, test, source], budget, { listOmitted: false });
    expect(packed.included).toEqual(["test/app.test.ts", "src/app.ts"]);
    expect(packed.omitted).toEqual([{ path: "docs/guide.md", reason: "over-budget" }]);
    expect(packed.text).toBe(
      renderDiffFile(test, { quoteNonAscii: false }) +
        renderDiffFile(source, { quoteNonAscii: false }),
    );
  });

  it("fits smaller files first within a kind", () => {
    const big = textFile("src/big.ts", 40);
    const small = textFile("src/small.ts", 1);
    const medium = textFile("src/medium.ts", 10);
    const budget = Math.max(sizeOf(big), sizeOf(small) + sizeOf(medium));
    const packed = packDiff([big, small, medium], budget, { listOmitted: false });
    expect(packed.included).toEqual(["src/small.ts", "src/medium.ts"]);
    expect(packed.omitted).toEqual([{ path: "src/big.ts", reason: "over-budget" }]);
  });

  it("skips past a file that no longer fits and fills the rest with lower-priority ones", () => {
    const small = textFile("src/small.ts", 1);
    const big = textFile("src/big.ts", 40);
    const test = textFile("test/a.test.ts", 1);
    const packed = packDiff([small, big, test], sizeOf(small) + sizeOf(big) - 1, {
      listOmitted: false,
    });
    expect(packed.included).toEqual(["src/small.ts", "test/a.test.ts"]);
    expect(packed.omitted).toEqual([{ path: "src/big.ts", reason: "over-budget" }]);
  });

  it("calls a file bigger than the whole budget too large, and does not cut it", () => {
    const huge = textFile("src/huge.ts", 200);
    const small = textFile("src/small.ts", 1);
    const packed = packDiff([huge, small], sizeOf(huge) - 1);
    expect(packed.omitted).toEqual([{ path: "src/huge.ts", reason: "too-large" }]);
    expect(packed.included).toEqual(["src/small.ts"]);
    expect(packed.text).not.toContain("src/huge.ts\n---");
    expect(packed.text).toContain("# - src/huge.ts (too-large)");
  });

  it("gives up the lowest-priority file to make room for the list of omissions", () => {
    const source = textFile("src/app.ts", 2);
    const docs = textFile("README.md", 2);
    const lock = textFile("yarn.lock", 2);
    const packed = packDiff([source, docs, lock], sizeOf(source) + sizeOf(docs));
    expect(packed.included).toEqual(["src/app.ts"]);
    expect(packed.omitted.map((file) => file.path)).toEqual(["yarn.lock", "README.md"]);
    expect(packed.text.length).toBeLessThanOrEqual(sizeOf(source) + sizeOf(docs));
  });

  it("rejects a negative or non-numeric budget", () => {
    expect(() => packDiff([], -1)).toThrow(RangeError);
    expect(() => packDiff([], Number.NaN)).toThrow(RangeError);
  });

  it("never exceeds the budget and accounts for every file (property)", () => {
    fc.assert(
      fc.property(
        fc.array(arbitraryDiffFile(), { maxLength: 8 }),
        fc.integer({ min: 0, max: 3000 }),
        (files, budget) => {
          const packed = packDiff(files, budget);
          expect(packed.text.length).toBeLessThanOrEqual(budget);
          const accounted = [...packed.included, ...packed.omitted.map((file) => file.path)];
          expect(accounted.sort()).toEqual(files.map((file) => file.path).sort());
          // The text holds the included files whole and nothing else.
          expect(parseUnifiedDiff(packed.text).map((file) => file.path)).toEqual(packed.included);
        },
      ),
      { numRuns: 200 },
    );
  });
});
