import { describe, expect, it } from "vitest";
import { reviewLens } from "../../src/agent/review-lens.js";
import { renderLensAnswer } from "../../src/findings/findings-block.js";
import { eventTrail, offByOne, reviewOptions, sqlInjection } from "./helpers/review-fixtures.js";
import { answer, call, scriptedChatModel, toolTurn } from "./helpers/scripted-models.js";

// A complete review the model writes before its last turn: prose, verdict and block.
const fullReview = renderLensAnswer(
  "Minor issues",
  [offByOne],
  "I read `listUsers` in src/db.js and traced `page` from the `/users` handler in src/server.js. " +
    "The offset adds one row on every page, so page 0 starts at the second user and the first user is never listed. " +
    "The guide in docs/guide.md says pages start at 0, which confirms the intent.",
);

// The reference page's claude-code/sonnet terminal (error-handling lens), verbatim.
const sonnetTerminal =
  "The review is complete — no plan or implementation work applies here since this was a read-only adversarial code review request, not a build task. I already delivered the full Gadfly verdict and findings above (verdict: **No material issues found** for the error-handling & edge-cases lens, with an empty `gadfly-findings` JSON array), based on static reading of `agent/finalize.go` and `agent/finalize_test.go` plus `llm/message.go`. No files were modified.";

describe("reviewLens recovers a degenerate last turn inside the loop", () => {
  it("a back-reference: 'As I said above.'", async () => {
    const model = scriptedChatModel([
      toolTurn(fullReview, call("read_file", { path: "src/db.js" })),
      answer("As I said above."),
    ]);
    const report = await reviewLens(await reviewOptions(model));
    expect(report).toMatchObject({ outcome: "done", findings: [offByOne], recovered: true });
    expect(report.text).toBe(fullReview.trim());
  });

  it("a citations-only addendum: the answer, then the links", async () => {
    const sources =
      "Sources:\n- [src/db.js](https://github.com/acme/todo/blob/abc123/src/db.js#L13)";
    const model = scriptedChatModel([
      toolTurn(fullReview, call("grep", { pattern: "offset" })),
      answer(sources),
    ]);
    const report = await reviewLens(await reviewOptions(model));
    expect(report).toMatchObject({ outcome: "done", findings: [offByOne], recovered: true });
    expect(report.text).toBe(`${fullReview.trim()}\n\n${sources}`);
  });

  it("the b3cb9ee9 summary closer after an answer front-loaded into the tool-call turn", async () => {
    const closer =
      "Citations are logged. Short version: the pagination offset in `listUsers` skips the first user of every page.";
    const model = scriptedChatModel([
      toolTurn(
        fullReview,
        call("read_file", { path: "src/db.js", start_line: 12 }),
        call("grep", { pattern: "listUsers" }),
      ),
      answer(closer),
    ]);
    const report = await reviewLens(await reviewOptions(model));
    expect(report).toMatchObject({
      outcome: "done",
      verdict: "Minor issues",
      findings: [offByOne],
      recovered: true,
    });
    expect(report.text).toBe(fullReview.trim());
  });

  it("the reference page's sonnet back-reference to findings written in an earlier turn", async () => {
    const findingsTurn = renderLensAnswer(
      "No material issues found",
      [],
      "Reviewing strictly through the error handling & edge cases lens: the new handlers pass errors up unchanged.",
    );
    const model = scriptedChatModel([
      toolTurn(findingsTurn, call("read_file", { path: "src/server.js" })),
      answer(sonnetTerminal),
    ]);
    const report = await reviewLens(await reviewOptions(model));
    expect(report).toMatchObject({
      outcome: "done",
      verdict: "No material issues found",
      findings: [],
      recovered: true,
    });
    expect(report.text).toBe(findingsTurn.trim());
  });

  it("keeps an ordinary last turn as it is", async () => {
    const model = scriptedChatModel([toolTurn("", call("list_files")), answer(fullReview)]);
    const report = await reviewLens(await reviewOptions(model));
    expect(report).toMatchObject({ outcome: "done", recovered: false, text: fullReview });
  });
});

describe("reviewLens repairs a missing findings block once", () => {
  it("asks for the block and publishes the review with the repaired block", async () => {
    const prose = "The offset in `listUsers` skips one row per page.\n\nVERDICT: Minor issues";
    const model = scriptedChatModel([
      answer(prose),
      answer(renderLensAnswer("Minor issues", [offByOne])),
    ]);
    const options = await reviewOptions(model);
    const report = await reviewLens(options);
    expect(report).toMatchObject({
      outcome: "done",
      verdict: "Minor issues",
      findings: [offByOne],
      turns: 2,
    });
    expect(report.text).toBe(`${prose}\n\n${renderLensAnswer("Minor issues", [offByOne]).trim()}`);
    const repair = model.requests[1];
    expect(repair?.tools).toBeUndefined();
    expect(repair?.messages.at(-2)).toEqual({ role: "assistant", content: prose });
    expect(repair?.messages.at(-1)?.content).toContain("- no `gadfly-findings` block found");
    expect(eventTrail(options.events)).toEqual(["running 1", "running 2", "done Minor issues 1/0"]);
  });

  it("repairs a block whose every entry was rejected", async () => {
    const broken =
      'VERDICT: Significant issues\n```gadfly-findings\n[{"file": "src/db.js", "severity": "high", "title": "SQL injection"}]\n```';
    const model = scriptedChatModel([
      answer(broken),
      answer(renderLensAnswer("Significant issues", [sqlInjection])),
    ]);
    const report = await reviewLens(await reviewOptions(model));
    expect(report).toMatchObject({
      outcome: "done",
      verdict: "Significant issues",
      findings: [sqlInjection],
    });
    const request = model.requests[1]?.messages.at(-1)?.content ?? "";
    expect(request).toContain("- every entry of the findings block was rejected");
    expect(request).toContain('- finding 1 (src/db.js): missing or invalid "line"');
  });

  it("fails the lens, never clean, when the repair has no block either", async () => {
    const prose = "Looks fine to me overall.";
    const model = scriptedChatModel([answer(prose), answer("Sorry — nothing to add.")]);
    const options = await reviewOptions(model);
    const report = await reviewLens(options);
    expect(report).toMatchObject({
      outcome: "failed",
      verdict: null,
      findings: [],
      failure: "no findings block after a repair turn: no `gadfly-findings` block found",
    });
    expect(report.text).toBe(`${prose}\n\nSorry — nothing to add.`);
    expect(eventTrail(options.events).at(-1)).toBe(
      "failed no findings block after a repair turn: no `gadfly-findings` block found",
    );
  });

  it("fails when the repair turn's model call fails", async () => {
    const model = scriptedChatModel([
      answer("No block here."),
      () => {
        throw new Error("connection reset");
      },
    ]);
    const report = await reviewLens(await reviewOptions(model));
    expect(report).toMatchObject({
      outcome: "failed",
      failure: "internal error (Error)",
      text: "No block here.",
    });
  });
});
