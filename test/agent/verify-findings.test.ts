import { describe, expect, it } from "vitest";
import { reviewLens } from "../../src/agent/review-lens.js";
import { parseUnifiedDiff } from "../../src/diff/parse-unified-diff.js";
import { renderLensAnswer } from "../../src/findings/findings-block.js";
import type { LensFinding } from "../../src/findings/schema.js";
import { FakeClock } from "../helpers/fake-clock.js";
import {
  eventTrail,
  offByOne,
  promptInput,
  reviewOptions,
  sqlInjection,
} from "./helpers/review-fixtures.js";
import { answer, call, scriptedChatModel, toolTurn } from "./helpers/scripted-models.js";

const review = renderLensAnswer(
  "Significant issues",
  [sqlInjection, offByOne],
  "Two problems in the new data access code of src/db.js.",
);
const verifyLimits = { maxTurns: 8, timeoutSeconds: 900, verify: true };

/** The change the findings cite (src/db.js) and one they do not. */
const changed = parseUnifiedDiff(
  [
    "diff --git a/src/db.js b/src/db.js",
    "--- a/src/db.js",
    "+++ b/src/db.js",
    "@@ -6,0 +7,2 @@",
    "+const sql = 'SELECT ' + name;",
    "+const offset = page * pageSize + 1;",
    "diff --git a/src/other.js b/src/other.js",
    "--- a/src/other.js",
    "+++ b/src/other.js",
    "@@ -1 +1 @@",
    "-a",
    "+b",
    "",
  ].join("\n"),
);

const newFinding: LensFinding = {
  file: "lib/format.js",
  line: 2,
  endLine: 2,
  severity: "medium",
  confidence: "medium",
  title: "formatUser crashes on a missing user",
  body: "`user` is null when the name is unknown.",
};

describe("the verification pass", () => {
  it("re-checks the findings with the tools and drops the one that does not hold", async () => {
    const note =
      "I've verified both findings against the actual source. The SQL injection holds (src/db.js:7); the offset one does not: `Pool.query` pages from 1.";
    const model = scriptedChatModel([
      answer(review),
      toolTurn("", call("read_file", { path: "src/pool.js" })),
      answer(`${note}\n\n${renderLensAnswer("Significant issues", [sqlInjection])}`),
    ]);
    const options = await reviewOptions(model, {
      limits: verifyLimits,
      prompt: { ...promptInput, changes: { files: changed, excluded: new Map() } },
    });
    const report = await reviewLens(options);

    expect(report).toMatchObject({
      outcome: "done",
      verdict: "Significant issues",
      findings: [sqlInjection],
      dropped: [offByOne],
      turns: 3,
    });
    expect(report.text).toBe(
      [
        note,
        "Verification dropped 1 of 2 findings: `src/db.js:13` Pagination offset skips the first user of every page.",
        review,
      ].join("\n\n"),
    );
    // A short session of its own: the review's system text, a context naming the lens with the
    // cited file's hunks, then the request; never the review's conversation.
    const request = model.requests[1];
    const reviewRequest = model.requests[0];
    expect(request?.messages.map((message) => message.role)).toEqual(["system", "user", "user"]);
    expect(request?.messages[0]).toEqual(reviewRequest?.messages[0]);
    expect(request?.messages[1]?.content).toMatch(
      /^## Your lens: 🎯 Correctness \(lens: correctness\)/,
    );
    expect(request?.messages[1]?.content).toContain("modified src/db.js (+2 -0) — shown below");
    expect(request?.messages[1]?.content).toContain("+const sql = 'SELECT ' + name;");
    expect(request?.messages[1]?.content).not.toContain("src/other.js");
    expect(JSON.stringify(request?.messages)).not.toContain(review);
    expect(request?.messages.at(-1)?.content).toMatch(/^Verification pass\./);
    expect(request?.messages.at(-1)?.content).toContain(offByOne.title);
    expect(request?.tools?.map((tool) => tool.name)).toEqual([
      "read_file",
      "grep",
      "list_files",
      "find_files",
      "get_diff",
    ]);
    expect(eventTrail(options.events)).toEqual([
      "running 1",
      "verifying 2",
      "running 2",
      "tool read_file src/pool.js",
      "running 3",
      "done Significant issues 1/1",
    ]);
  });

  it("derives the verdict from what survived", async () => {
    const model = scriptedChatModel([
      answer(review),
      answer(`Only the offset finding holds.\n\n${renderLensAnswer("Minor issues", [offByOne])}`),
    ]);
    const report = await reviewLens(await reviewOptions(model, { limits: verifyLimits }));
    expect(report).toMatchObject({
      verdict: "Minor issues",
      statedVerdict: "Minor issues",
      findings: [offByOne],
      dropped: [sqlInjection],
    });
  });

  it("drops everything when the verification answers an empty block", async () => {
    const model = scriptedChatModel([
      answer(review),
      answer(
        `Neither holds on a second look.\n\n${renderLensAnswer("No material issues found", [])}`,
      ),
    ]);
    const report = await reviewLens(await reviewOptions(model, { limits: verifyLimits }));
    expect(report).toMatchObject({
      verdict: "No material issues found",
      findings: [],
      dropped: [sqlInjection, offByOne],
    });
  });

  it("keeps the original findings, and says so, when the answer cannot be parsed", async () => {
    const model = scriptedChatModel([
      answer(review),
      answer("I checked them and they look right to me."),
    ]);
    const report = await reviewLens(await reviewOptions(model, { limits: verifyLimits }));
    expect(report).toMatchObject({
      outcome: "done",
      verdict: "Significant issues",
      findings: [sqlInjection, offByOne],
      dropped: [],
    });
    expect(report.text).toBe(
      `verification did not complete: no usable findings block in its answer (no \`gadfly-findings\` block found). The review's findings are kept, unverified.\n\n${review}`,
    );
  });

  it("in the full-diff style, continues the review's conversation", async () => {
    const model = scriptedChatModel([
      answer(review),
      answer(
        `Only the injection holds.\n\n${renderLensAnswer("Significant issues", [sqlInjection])}`,
      ),
    ]);
    const report = await reviewLens(
      await reviewOptions(model, {
        limits: verifyLimits,
        prompt: { ...promptInput, style: "full-diff" },
      }),
    );
    expect(report.dropped).toEqual([offByOne]);
    const request = model.requests[1];
    expect(request?.messages.slice(0, 3)).toEqual(model.requests[0]?.messages);
    expect(request?.messages.at(-2)).toEqual({ role: "assistant", content: review });
    expect(request?.messages.at(-1)?.content).toMatch(/^Verification pass\./);
  });

  it("keeps the findings when the verification only points back at the review", async () => {
    // Continuing the conversation, finalize finds the review itself: not a verification.
    const model = scriptedChatModel([answer(review), answer("As I said above.")]);
    const full = { ...promptInput, style: "full-diff" as const };
    const report = await reviewLens(
      await reviewOptions(model, { limits: verifyLimits, prompt: full }),
    );
    expect(report.findings).toEqual([sqlInjection, offByOne]);
    expect(report.text).toMatch(
      /^verification did not complete: its answer only pointed back at the review\./,
    );
    // In its own session there is nothing above to point at: no block, findings kept.
    const compact = scriptedChatModel([answer(review), answer("As I said above.")]);
    const alone = await reviewLens(await reviewOptions(compact, { limits: verifyLimits }));
    expect(alone.findings).toEqual([sqlInjection, offByOne]);
    expect(alone.text).toMatch(/^verification did not complete: no usable findings block/);
  });

  it("keeps the findings when the verification call fails", async () => {
    const model = scriptedChatModel([
      answer(review),
      () => {
        throw new Error("socket hang up");
      },
    ]);
    const report = await reviewLens(await reviewOptions(model, { limits: verifyLimits }));
    expect(report).toMatchObject({
      outcome: "done",
      findings: [sqlInjection, offByOne],
      dropped: [],
    });
    expect(report.text).toMatch(/^verification did not complete: internal error \(Error\)\./);
  });

  it("ignores findings the verification adds, and notes them", async () => {
    const model = scriptedChatModel([
      answer(review),
      answer(
        `Both hold, and I found one more.\n\n${renderLensAnswer("Significant issues", [sqlInjection, offByOne, newFinding])}`,
      ),
    ]);
    const report = await reviewLens(await reviewOptions(model, { limits: verifyLimits }));
    expect(report.findings).toEqual([sqlInjection, offByOne]);
    expect(report.dropped).toEqual([]);
    expect(report.text).toContain(
      "The verification answer listed 1 finding(s) the review did not report; verification can only remove findings, so they were ignored.",
    );
  });

  it("recognises a survivor whose line the verifier nudged, keeping the original", async () => {
    const nudged = { ...offByOne, line: 14, endLine: 14, title: "Offset skips a row" };
    const model = scriptedChatModel([
      answer(review),
      answer(`Both hold.\n\n${renderLensAnswer("Significant issues", [sqlInjection, nudged])}`),
    ]);
    const report = await reviewLens(await reviewOptions(model, { limits: verifyLimits }));
    expect(report.findings).toEqual([sqlInjection, offByOne]);
    expect(report.dropped).toEqual([]);
  });

  it("runs only when the review has findings", async () => {
    const model = scriptedChatModel([answer(renderLensAnswer("No material issues found", []))]);
    const options = await reviewOptions(model, { limits: verifyLimits });
    const report = await reviewLens(options);
    expect(report.outcome).toBe("done");
    expect(model.requests).toHaveLength(1);
    expect(eventTrail(options.events)).not.toContain("verifying 0");
  });

  it("asks for the verification answer without tools when its turns run out", async () => {
    const model = scriptedChatModel([
      answer(review),
      toolTurn("", call("read_file", { path: "src/db.js" })),
      toolTurn("", call("grep", { pattern: "offset" })),
      answer(
        `Only the injection holds.\n\n${renderLensAnswer("Significant issues", [sqlInjection])}`,
      ),
    ]);
    const report = await reviewLens(
      await reviewOptions(model, { limits: verifyLimits, verifyMaxTurns: 2 }),
    );
    expect(report.dropped).toEqual([offByOne]);
    expect(model.requests[3]?.tools).toBeUndefined();
    expect(model.requests[3]?.messages.at(-1)?.content).toContain("(2 verification turns)");
  });

  it("is cancelled, not completed, when the signal aborts during verification", async () => {
    const controller = new AbortController();
    const clock = new FakeClock();
    const model = scriptedChatModel([
      answer(review),
      () => {
        controller.abort("superseded by a newer push");
        return new Promise(() => {});
      },
    ]);
    const report = await reviewLens(
      await reviewOptions(model, { limits: verifyLimits, signal: controller.signal, clock }),
    );
    expect(report).toMatchObject({ outcome: "cancelled", findings: [], verdict: null });
    expect(clock.pending()).toBe(0);
  });
});
