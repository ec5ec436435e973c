import { describe, expect, it } from "vitest";
import { reviewLens } from "../../src/agent/review-lens.js";
import { renderLensAnswer } from "../../src/findings/findings-block.js";
import { FakeClock } from "../helpers/fake-clock.js";
import {
  eventTrail,
  offByOne,
  promptInput,
  reviewOptions,
  sqlInjection,
} from "./helpers/review-fixtures.js";
import { scriptedAgentModel } from "./helpers/scripted-models.js";

const sonnetTerminal =
  "The review is complete — no plan or implementation work applies here since this was a read-only adversarial code review request, not a build task. I already delivered the full Gadfly verdict and findings above (verdict: **No material issues found** for the error-handling & edge-cases lens, with an empty `gadfly-findings` JSON array), based on static reading of `agent/finalize.go` and `agent/finalize_test.go` plus `llm/message.go`. No files were modified.";

describe("reviewLens with an agent CLI", () => {
  it("runs once in the workspace with the whole prompt", async () => {
    const model = scriptedAgentModel([
      { text: renderLensAnswer("Minor issues", [offByOne], "Checked src/db.js.") },
    ]);
    const options = await reviewOptions(model);
    const report = await reviewLens(options);
    expect(report).toMatchObject({
      model: "scripted-cli/opus",
      provider: "scripted-cli",
      outcome: "done",
      verdict: "Minor issues",
      findings: [offByOne],
      turns: 1,
    });
    const request = model.requests[0];
    expect(request?.cwd).toBe(options.workspace.root);
    expect(request?.prompt).toContain("You are Gadfly, an adversarial code reviewer.");
    expect(request?.prompt).toContain(
      "Your working directory is a checkout of the pull request's head.",
    );
    expect(request?.prompt).toContain("Add user lookup and pagination");
    expect(request?.prompt).not.toContain(
      "`read_file {path, start_line?, end_line?}` (numbered lines)",
    );
    expect(eventTrail(options.events)).toEqual(["running 1", "done Minor issues 1/0"]);
  });

  it("recovers the sonnet back-reference from the agent's transcript", async () => {
    const findingsTurn = renderLensAnswer(
      "No material issues found",
      [],
      "Nothing in the error paths is wrong.",
    );
    const model = scriptedAgentModel([
      {
        text: sonnetTerminal,
        transcript: [
          { role: "user", content: "review this" },
          { role: "assistant", content: findingsTurn },
          { role: "assistant", content: sonnetTerminal },
        ],
      },
    ]);
    const report = await reviewLens(await reviewOptions(model));
    expect(report).toMatchObject({
      outcome: "done",
      verdict: "No material issues found",
      recovered: true,
    });
    expect(report.text).toBe(findingsTurn.trim());
  });

  it("repairs with a second run that carries the previous answer", async () => {
    const first = "The offset in listUsers skips a row.\n\nVERDICT: Minor issues";
    const model = scriptedAgentModel([
      { text: first },
      { text: renderLensAnswer("Minor issues", [offByOne]) },
    ]);
    const report = await reviewLens(await reviewOptions(model));
    expect(report).toMatchObject({ outcome: "done", findings: [offByOne], turns: 2 });
    const repair = model.requests[1]?.prompt ?? "";
    expect(repair).toContain(`## Your previous answer\n\n\`\`\`\n${first}\n\`\`\``);
    expect(repair).toContain("Reply with only the `VERDICT:` line");
  });

  it("fails when the repair run has no block either", async () => {
    const model = scriptedAgentModel([{ text: "All good." }, { text: "Still all good." }]);
    const report = await reviewLens(await reviewOptions(model));
    expect(report).toMatchObject({
      outcome: "failed",
      failure: "no findings block after a repair turn: no `gadfly-findings` block found",
    });
  });

  it("fails with 'timed out' when the run outlives the budget", async () => {
    const clock = new FakeClock();
    const model = scriptedAgentModel([
      () => {
        clock.advance(900_000);
        return new Promise(() => {});
      },
    ]);
    const options = await reviewOptions(model, { clock });
    const report = await reviewLens(options);
    expect(report).toMatchObject({
      outcome: "failed",
      failure: "timed out after 900 s",
      verdict: null,
    });
    expect(eventTrail(options.events)).toEqual(["running 1", "failed timed out after 900 s"]);
  });

  it("verifies in a short run of its own: the findings, not the review's prompt", async () => {
    const review = renderLensAnswer("Significant issues", [sqlInjection, offByOne]);
    const model = scriptedAgentModel([
      { text: review },
      {
        text: `The offset finding is wrong.\n\n${renderLensAnswer("Significant issues", [sqlInjection])}`,
      },
    ]);
    const report = await reviewLens(
      await reviewOptions(model, { limits: { maxTurns: 8, timeoutSeconds: 900, verify: true } }),
    );
    expect(report).toMatchObject({ findings: [sqlInjection], dropped: [offByOne] });
    const verify = model.requests[1]?.prompt ?? "";
    expect(verify).not.toContain("## Your review");
    expect(verify).not.toContain(promptInput.diff);
    expect(verify).toContain("## Your lens: 🎯 Correctness (lens: correctness)");
    expect(verify).toContain("Verification pass.");
    expect(verify).toContain(offByOne.title);
    expect(report.text.startsWith("The offset finding is wrong.")).toBe(true);
  });
});
