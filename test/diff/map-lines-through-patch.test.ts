import { describe, expect, it } from "vitest";
import { mapLinesThroughPatch } from "../../src/diff/map-lines-through-patch.js";
import { parsePatch } from "../../src/diff/parse-patch.js";

// Old lines 1..20; the patch deletes old 3, adds two lines after old 10, and changes old 15.
const patch = [
  "@@ -2,3 +2,2 @@",
  " two",
  "-three",
  " four",
  "@@ -9,3 +8,5 @@",
  " nine",
  " ten",
  "+new a",
  "+new b",
  " eleven",
  "@@ -14,3 +15,3 @@",
  " fourteen",
  "-fifteen",
  "+FIFTEEN",
  " sixteen",
].join("\n");
const file = parsePatch("src/a.ts", patch, { status: "modified" });

describe("mapLinesThroughPatch", () => {
  it.each([
    ["above every hunk", 1, 1, { line: 1, endLine: 1 }],
    ["below a deletion: up by one", 5, 7, { line: 4, endLine: 6 }],
    ["below the additions too: down by one net", 12, 13, { line: 13, endLine: 14 }],
    ["below everything", 18, 20, { line: 19, endLine: 21 }],
  ])("moves a range %s", (_name, line, endLine, want) => {
    expect(mapLinesThroughPatch(file, line, endLine)).toEqual(want);
  });

  it.each([
    ["a deleted line", 3, 3],
    ["a range holding a deleted line", 1, 4],
    ["a changed line", 15, 15],
    ["lines added right after it", 10, 10],
    ["lines added right before it", 11, 11],
    ["lines added inside it", 9, 12],
  ])("says a range with %s was touched", (_name, line, endLine) => {
    expect(mapLinesThroughPatch(file, line, endLine)).toBe("touched");
  });

  it("says a deleted, binary or hunkless file was touched", () => {
    const deleted = parsePatch("src/a.ts", "@@ -1 +0,0 @@\n-x", { status: "removed" });
    expect(mapLinesThroughPatch(deleted, 40, 40)).toBe("touched");
    expect(mapLinesThroughPatch({ ...file, binary: true }, 1, 1)).toBe("touched");
    expect(mapLinesThroughPatch({ ...file, hunks: [] }, 1, 1)).toBe("touched");
  });
});
