import { describe, expect, it } from "vitest";
import { reviewLens } from "../../src/agent/review-lens.js";
import { renderLensAnswer } from "../../src/findings/findings-block.js";
import { eventTrail, reviewOptions } from "./helpers/review-fixtures.js";
import {
  answer,
  call,
  scriptedAgentModel,
  scriptedChatModel,
  toolTurn,
} from "./helpers/scripted-models.js";

const clean = renderLensAnswer("No material issues", [], "Looks fine from the diff.");

describe("a reviewer whose every tool call failed", () => {
  it("a chat model's own tool errors (bad paths) are answered, not held against its lens", async () => {
    const model = scriptedChatModel([
      toolTurn("", call("read_file", { path: "no/such/file.js" })),
      toolTurn("", call("read_file", { path: "../outside.js" })),
      answer(clean),
    ]);
    const options = await reviewOptions(model);
    const report = await reviewLens(options);
    expect(report).toMatchObject({ outcome: "done", failure: null });
  });

  it("an agent CLI that called no tool is judged on its answer, as before", async () => {
    const report = await reviewLens(await reviewOptions(scriptedAgentModel([{ text: clean }])));
    expect(report.outcome).toBe("done");
  });

  it("an agent CLI whose transcript shows only failed tool calls fails its lens", async () => {
    const blind = scriptedAgentModel([{ text: clean, toolCalls: { attempted: 4, failed: 4 } }]);
    const options = await reviewOptions(blind);
    const report = await reviewLens(options);
    expect(report.outcome).toBe("failed");
    expect(report.verdict).toBeNull();
    expect(report.failure).toBe(
      "every tool call of the review failed (4 of 4): the reviewer could read no file of the repository",
    );
    // What it answered is kept beside the reason, not published as a review.
    expect(report.text).toContain("Looks fine from the diff.");
    expect(eventTrail(options.events).at(-1)).toMatch(/^failed every tool call/);

    const sighted = scriptedAgentModel([{ text: clean, toolCalls: { attempted: 4, failed: 3 } }]);
    expect((await reviewLens(await reviewOptions(sighted))).outcome).toBe("done");
  });
});
