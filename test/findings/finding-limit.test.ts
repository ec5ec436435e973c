import { describe, expect, it } from "vitest";
import { findingFloodAnswer, floodFinding } from "../../bench/worst-case-findings.js";
import { checkLensAnswer, MAX_ANSWER_CHARS } from "../../src/agent/check-lens-answer.js";
import { renderLensAnswer } from "../../src/findings/findings-block.js";
import { MAX_FINDINGS_PER_LENS, parseLensAnswer } from "../../src/findings/parse.js";

const finding = floodFinding;

describe("the per-lens finding limit", () => {
  it("is 50", () => {
    expect(MAX_FINDINGS_PER_LENS).toBe(50);
  });

  it("keeps the 50 most severe in the model's order and counts the rest", () => {
    // 100 nits first, then 10 high-severity findings: first-come would lose every high one.
    const nits = Array.from({ length: 100 }, (_, index) => finding(index));
    const highs = Array.from({ length: 10 }, (_, index) => finding(100 + index, "high"));
    const answer = parseLensAnswer(renderLensAnswer("Significant issues", [...nits, ...highs]));

    expect(answer.findings).toHaveLength(50);
    expect(answer.overLimit).toBe(60);
    expect(answer.findings?.filter((kept) => kept.severity === "high")).toEqual(highs);
    // Among equals the first written win, and the kept ones stay in the model's order.
    expect(answer.findings).toEqual([...nits.slice(0, 40), ...highs]);
  });

  it("counts nothing at the limit, and does not count duplicates as over it", () => {
    const fifty = Array.from({ length: 50 }, (_, index) => finding(index));
    expect(parseLensAnswer(renderLensAnswer("Minor issues", fifty)).overLimit).toBe(0);
    const withDuplicates = parseLensAnswer(
      renderLensAnswer("Minor issues", [...fifty, ...fifty.slice(0, 5)]),
    );
    expect(withDuplicates.findings).toHaveLength(50);
    expect(withDuplicates.overLimit).toBe(0);
  });

  it("passes the count on through checkLensAnswer", () => {
    const many = Array.from({ length: 75 }, (_, index) => finding(index, "low"));
    expect(checkLensAnswer(renderLensAnswer("Minor issues", many))).toMatchObject({
      usable: true,
      overLimit: 25,
    });
  });

  it("does not read an answer over the size limit: the lens is not clean", () => {
    const padded = `${"x".repeat(MAX_ANSWER_CHARS)}\n${renderLensAnswer("No material issues found", [])}`;
    const checked = checkLensAnswer(padded);
    expect(checked.usable).toBe(false);
    expect(checked.usable === false && checked.problems[0]).toContain("over the limit");
  });

  it("keeps failure reasons short however many entries were rejected", () => {
    const block = `VERDICT: Minor issues\n\`\`\`gadfly-findings\n[${Array(5_000).fill('{"file": "a.ts"}').join(",")}]\n\`\`\``;
    const checked = checkLensAnswer(block);
    expect(checked.usable).toBe(false);
    if (checked.usable) return;
    expect(checked.problems).toHaveLength(21);
    expect(checked.problems.at(-1)).toBe("and 4981 more problem(s)");
  });

  it("keeps 50 of a flood of 4,000 findings and counts the rest (its time: the worst-case bench)", () => {
    const answer = parseLensAnswer(findingFloodAnswer(4_000));
    expect(answer.findings).toHaveLength(50);
    expect(answer.overLimit).toBe(4_000 - 50);
    // A third are low, the rest nits: the 50 kept are the first lows, in the model's order.
    expect(answer.findings?.every((kept) => kept.severity === "low")).toBe(true);
    expect(answer.findings?.[0]?.title).toBe("Finding number 0");
  });
});
