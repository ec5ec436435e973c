import { describe, expect, it } from "vitest";
import { MAX_ANSWER_CHARS } from "../../src/agent/check-lens-answer.js";
import { reviewLens } from "../../src/agent/review-lens.js";
import { renderLensAnswer } from "../../src/findings/findings-block.js";
import type { LensFinding } from "../../src/findings/schema.js";
import { reviewOptions } from "./helpers/review-fixtures.js";
import { answer, scriptedChatModel } from "./helpers/scripted-models.js";

const finding = (index: number): LensFinding => ({
  file: "src/db.js",
  line: 1 + index,
  endLine: 1 + index,
  severity: index < 5 ? "high" : "nit",
  confidence: "medium",
  title: `Problem ${index}`,
  body: `Detail ${index}.`,
});

describe("a lens answer over the finding limit", () => {
  it("reports 50 findings and counts the rest in the lens report", async () => {
    const flood = Array.from({ length: 80 }, (_, index) => finding(index));
    const model = scriptedChatModel([answer(renderLensAnswer("Significant issues", flood))]);
    const report = await reviewLens(await reviewOptions(model));
    expect(report.outcome).toBe("done");
    expect(report.findings).toHaveLength(50);
    expect(report.overLimit).toBe(30);
    expect(report.findings.slice(0, 5)).toEqual(flood.slice(0, 5));
  });

  it("verifies only the kept findings, and says when the verification answer overflows", async () => {
    const flood = Array.from({ length: 60 }, (_, index) => finding(index));
    const model = scriptedChatModel([
      answer(renderLensAnswer("Significant issues", flood)),
      // The verifier echoes all 60 back: 10 are beyond the limit and are not read.
      answer(renderLensAnswer("Significant issues", flood)),
    ]);
    const report = await reviewLens(
      await reviewOptions(model, { limits: { maxTurns: 8, timeoutSeconds: 900, verify: true } }),
    );
    expect(model.requests[1]?.messages.at(-1)?.content.match(/"title": "Problem/g)).toHaveLength(
      50,
    );
    expect(report.findings).toHaveLength(50);
    expect(report.overLimit).toBe(10);
    expect(report.text).toContain("listed 10 finding(s) beyond the limit of 50 per lens");
  });

  it("fails an answer over the size limit, even with a block, and keeps only the limit of it", async () => {
    const huge = `${"Padding. ".repeat(70_000)}\n${renderLensAnswer("No material issues found", [])}`;
    const model = scriptedChatModel([answer(huge), answer(huge)]);
    const report = await reviewLens(await reviewOptions(model));
    expect(huge.length).toBeGreaterThan(MAX_ANSWER_CHARS);
    expect(report.outcome).toBe("failed");
    expect(report.failure).toContain("over the limit");
    expect(report.text.length).toBeLessThan(MAX_ANSWER_CHARS + 200);
    expect(report.text).toContain("_… cut: the answer was");
  });
});
