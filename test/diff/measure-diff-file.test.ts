import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { measureDiffFile } from "../../src/diff/measure-diff-file.js";
import { renderDiffFile } from "../../src/diff/render-diff-file.js";
import { arbitraryDiffFile } from "./arbitrary-diff-file.js";

describe("measureDiffFile", () => {
  it("equals the length of the rendered file (property)", () => {
    fc.assert(
      fc.property(arbitraryDiffFile(), fc.boolean(), (file, quoteNonAscii) => {
        expect(measureDiffFile(file, { quoteNonAscii })).toBe(
          renderDiffFile(file, { quoteNonAscii }).length,
        );
      }),
      { numRuns: 300 },
    );
  });
});
