import { describe, expect, it } from "vitest";
import { reviewLens } from "../../src/agent/review-lens.js";
import { renderLensAnswer } from "../../src/findings/findings-block.js";
import type { LensFinding } from "../../src/findings/schema.js";
import { offByOne, reviewOptions, sqlInjection } from "./helpers/review-fixtures.js";
import { answer, scriptedAgentModel, scriptedChatModel } from "./helpers/scripted-models.js";

/** The correctness reviewer's one "Outside my lens" finding, as it writes it. */
const outside: LensFinding = { ...sqlInjection, lens: "security" };
const attributed = { ...sqlInjection, lens: "security", reportedBy: "correctness" };
const second: LensFinding = {
  ...offByOne,
  line: 7,
  endLine: 7,
  severity: "high",
  title: "Every lookup queries the whole table",
  lens: "performance",
};

describe('reviewLens with an "Outside my lens" finding', () => {
  it("attributes it to the lens it names, names the second one it ignored", async () => {
    const model = scriptedChatModel([
      answer(renderLensAnswer("Significant issues", [offByOne, outside, second], "Checked.")),
    ]);
    const report = await reviewLens(await reviewOptions(model));
    expect(report).toMatchObject({ lens: "correctness", outcome: "done" });
    expect(report.findings).toEqual([offByOne, attributed]);
    expect(report.text).toContain(
      'Gadfly could not read 1 entry of the findings block: finding 3 (src/db.js:7): ignored: a second "Outside my lens" finding (performance); one per answer is read._',
    );
  });

  it("keeps the attribution through verification, which matches the review's own findings", async () => {
    const model = scriptedChatModel([
      answer(renderLensAnswer("Significant issues", [offByOne, outside], "Checked.")),
      answer(renderLensAnswer("Significant issues", [offByOne, outside], "Both hold.")),
    ]);
    const report = await reviewLens(
      await reviewOptions(model, { limits: { maxTurns: 8, timeoutSeconds: 900, verify: true } }),
    );
    expect(report.findings).toEqual([offByOne, attributed]);
    expect(report.dropped).toEqual([]);
    // The verifier is shown the lens it named.
    expect(model.requests[1]?.messages.at(-1)?.content).toContain('"lens": "security"');
  });

  it("attributes it for an agent CLI too", async () => {
    const model = scriptedAgentModel([
      { text: renderLensAnswer("Significant issues", [outside], "Checked src/db.js.") },
    ]);
    const report = await reviewLens(await reviewOptions(model));
    expect(report.findings).toEqual([attributed]);
  });
});
