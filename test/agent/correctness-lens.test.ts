import { describe, expect, it } from "vitest";
import { buildReviewPrompt } from "../../src/agent/build-review-prompt.js";
import { lens, promptInput } from "./helpers/review-fixtures.js";

describe("the correctness lens", () => {
  it("asks for every constant, conversion and formula to be re-derived, not trusted", async () => {
    const correctness = await lens("correctness");
    expect(correctness.prompt).toContain("## Re-derive every constant and formula");
    for (const topic of [
      "**Unit conversions**",
      "**Time constants**",
      "a day 86_400 s",
      "**Byte sizes**",
      "powers of 1024",
      "powers of 1000",
      "**Percentages and ratios**",
      "**Bounds**",
      "**Formulas**",
    ]) {
      expect(correctness.prompt).toContain(topic);
    }
    expect(correctness.prompt).toContain(
      "A finding about a wrong constant or formula states the value expected and how\nyou derived it",
    );
    // Before the verification steps and the rubric, which keep their headings.
    const order = ["## Re-derive", "## How to verify", "## Severity for this lens"].map((heading) =>
      correctness.prompt.indexOf(heading),
    );
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(buildReviewPrompt(correctness, promptInput).lens).toContain(
      "24 × 60 × 60 × 1000 = 86_400_000",
    );
  });
});
