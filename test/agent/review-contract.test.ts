import { describe, expect, it } from "vitest";
import { reviewContract } from "../../src/agent/review-contract.js";
import { extractFencedBlocks } from "../../src/findings/extract-fenced-blocks.js";
import { OUTSIDE_LENS_IDS } from "../../src/findings/outside-lens.js";
import { parseLensAnswer } from "../../src/findings/parse.js";

describe("reviewContract: Outside my lens", () => {
  for (const access of ["repo-tools", "agent"] as const) {
    it(`says how to report one severe problem of another lens (${access})`, () => {
      const contract = reviewContract(access);
      expect(contract).toContain(
        'The one exception is an "Outside my lens" finding (see the output contract).',
      );
      expect(contract).toContain("**Outside my lens.**");
      expect(contract).toContain('one more field, `"lens"`, naming that lens');
      expect(contract).toContain(OUTSIDE_LENS_IDS.map((id) => `\`${id}\``).join(", "));
      expect(contract).toContain("a `severity` of `high` or `medium`");
      expect(contract).toContain(
        "Only the first such entry of an answer is read; a second one, or one below `medium`, is ignored.",
      );
      expect(contract).toContain("Written anywhere but in your `gadfly-findings` block");
    });
  }

  it("describes an entry the parser attributes to the lens it names", () => {
    // The contract's own example, with the field it describes added.
    const example = extractFencedBlocks(reviewContract("repo-tools"))[0]?.content ?? "";
    const answer = example.replace(
      '"severity": "medium",',
      '"severity": "medium",\n"lens": "security",',
    );
    expect(answer).not.toBe(example);
    const parsed = parseLensAnswer(answer, { lens: "correctness" });
    expect(parsed.findings).toEqual([
      expect.objectContaining({
        file: "src/orders/total.ts",
        lens: "security",
        reportedBy: "correctness",
      }),
    ]);
  });
});
