import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reviewLens } from "../../src/agent/review-lens.js";
import { Workspace } from "../../src/agent/workspace.js";
import { renderLensAnswer } from "../../src/findings/findings-block.js";
import { ModelError } from "../../src/llm/errors.js";
import type { Message } from "../../src/llm/message.js";
import { FakeClock } from "../helpers/fake-clock.js";
import { eventTrail, offByOne, reviewOptions, sqlInjection } from "./helpers/review-fixtures.js";
import { answer, call, scriptedChatModel, toolTurn } from "./helpers/scripted-models.js";
import {
  OUTSIDE_SECRET,
  type TemporaryWorkspace,
  temporaryWorkspace,
} from "./helpers/temporary-workspace.js";

const toolResults = (messages: readonly Message[]) =>
  messages.filter((message) => message.role === "tool").map((message) => message.content);

describe("reviewLens with a chat model", () => {
  it("runs a multi-turn tool session over the repository and reports the answer", async () => {
    const model = scriptedChatModel([
      toolTurn("", call("list_files"), call("grep", { pattern: "listUsers" })),
      toolTurn("", call("read_file", { path: "src/db.js", start_line: 12, end_line: 15 })),
      answer(renderLensAnswer("Minor issues", [offByOne], "The new pagination skips a row.")),
    ]);
    const options = await reviewOptions(model);
    const report = await reviewLens(options);

    expect(report).toMatchObject({
      model: "scripted-model",
      provider: "scripted",
      lens: "correctness",
      outcome: "done",
      verdict: "Minor issues",
      statedVerdict: "Minor issues",
      findings: [offByOne],
      dropped: [],
      failure: null,
      turns: 3,
      usage: { inputTokens: 300, outputTokens: 60 },
      recovered: false,
    });
    expect(report.text).toContain("The new pagination skips a row.");

    const [first, second, third] = model.requests;
    // The shared prefix (system text, the change), then the lens.
    expect(first?.messages.map((message) => message.role)).toEqual(["system", "user", "user"]);
    expect(first?.messages[0]?.content).not.toContain("Correctness");
    expect(first?.messages[2]?.content).toContain("🎯 Correctness");
    expect(first?.tools?.map((tool) => tool.name)).toEqual([
      "read_file",
      "grep",
      "list_files",
      "find_files",
    ]);
    const afterFirst = toolResults(second?.messages ?? []);
    expect(afterFirst[0]).toContain("src/db.js\n");
    expect(afterFirst[1]).toContain(
      "src/db.js:12:export async function listUsers(page, pageSize) {",
    );
    expect(toolResults(third?.messages ?? []).at(-1)).toContain(
      "13\t  const offset = page * pageSize + 1;",
    );
    // Every tool result answers the call it belongs to.
    const calls = (third?.messages ?? [])
      .flatMap((message) => message.toolCalls ?? [])
      .map((c) => c.id);
    const answered = (third?.messages ?? []).flatMap((message) => message.toolCallId ?? []);
    expect(answered).toEqual(calls);

    expect(eventTrail(options.events)).toEqual([
      "running 1",
      "tool list_files .",
      "tool grep /listUsers/",
      "running 2",
      "tool read_file src/db.js:12-15",
      "running 3",
      "done Minor issues 1/0",
    ]);
    expect(
      options.events.every(
        (event) => event.model === "scripted-model" && event.lens === "correctness",
      ),
    ).toBe(true);
  });

  it("answers malformed arguments and unknown tools with errors, and goes on", async () => {
    const model = scriptedChatModel([
      toolTurn(
        "",
        call("read_file", '{"path": "src/db.js"'),
        call("delete_file", { path: "src/db.js" }),
      ),
      answer(renderLensAnswer("No material issues found", [])),
    ]);
    const report = await reviewLens(await reviewOptions(model));
    expect(report.outcome).toBe("done");
    expect(report.verdict).toBe("No material issues found");
    const results = toolResults(model.requests[1]?.messages ?? []);
    expect(results[0]).toMatch(/^error: the arguments of read_file are not valid JSON/);
    expect(results[1]).toBe(
      'error: unknown tool "delete_file"; the available tools are read_file, grep, list_files, find_files',
    );
  });

  describe("over a workspace with links out of it", () => {
    let temporary: TemporaryWorkspace;
    beforeAll(async () => {
      temporary = await temporaryWorkspace();
      await temporary.link("leak.txt", `${temporary.outside}/secret.txt`);
    });
    afterAll(() => temporary.remove());

    it("refuses a ../ path and a symlink escape, and the model sees why", async () => {
      const model = scriptedChatModel([
        toolTurn(
          "",
          call("read_file", { path: "../outside/secret.txt" }),
          call("read_file", { path: "leak.txt" }),
          call("grep", { pattern: "OUTSIDE" }),
        ),
        answer(renderLensAnswer("No material issues found", [])),
      ]);
      const report = await reviewLens(
        await reviewOptions(model, { workspace: await Workspace.open(temporary.root) }),
      );
      expect(report.outcome).toBe("done");
      const results = toolResults(model.requests[1]?.messages ?? []);
      expect(results[0]).toMatch(/^error: paths may not contain "\.\."/);
      expect(results[1]).toMatch(/^error: refused: leak\.txt resolves outside the repository/);
      expect(results[2]).toMatch(/^no matches for \/OUTSIDE\//);
      expect(results.join("\n")).not.toContain(OUTSIDE_SECRET);
    });
  });

  it("asks for the answer in one tool-free turn when the turn budget is spent", async () => {
    const model = scriptedChatModel([
      toolTurn("", call("list_files")),
      toolTurn("", call("read_file", { path: "src/db.js" })),
      // Asked for tools anyway: ignored, its text is the answer.
      toolTurn(renderLensAnswer("Minor issues", [offByOne]), call("grep", { pattern: "x" })),
    ]);
    const options = await reviewOptions(model, {
      limits: { maxTurns: 2, timeoutSeconds: 900, verify: false },
    });
    const report = await reviewLens(options);
    expect(report).toMatchObject({ outcome: "done", findings: [offByOne], turns: 3 });
    const final = model.requests[2];
    expect(final?.tools).toBeUndefined();
    expect(final?.messages.at(-1)).toMatchObject({ role: "user" });
    expect(final?.messages.at(-1)?.content).toContain("You have used your tool budget (2 turns)");
    // The calls of the last tool turn were answered before the final request.
    expect(toolResults(final?.messages ?? [])).toHaveLength(2);
    expect(eventTrail(options.events).filter((entry) => entry.startsWith("tool"))).toEqual([
      "tool list_files .",
      "tool read_file src/db.js",
    ]);
  });

  it("asks for the answer in one tool-free turn when the time budget is spent", async () => {
    const clock = new FakeClock();
    const model = scriptedChatModel([
      toolTurn("", call("list_files")),
      () => {
        clock.advance(901_000); // this call takes longer than the reviewer's whole budget
        return toolTurn("", call("read_file", { path: "src/db.js" }));
      },
      answer(renderLensAnswer("Minor issues", [offByOne])),
    ]);
    const report = await reviewLens(await reviewOptions(model, { clock }));
    expect(report).toMatchObject({ outcome: "done", verdict: "Minor issues", turns: 3 });
    const final = model.requests[2];
    expect(final?.tools).toBeUndefined();
    expect(final?.messages.at(-1)?.content).toContain("Your time budget (900 s) is exhausted.");
    // The call cut by the deadline never reached the conversation.
    expect(final?.messages.filter((message) => message.role === "assistant")).toHaveLength(1);
    expect(clock.pending()).toBe(0);
  });

  it("fails with a timeout when the final turn does not answer within its grace", async () => {
    const clock = new FakeClock();
    const model = scriptedChatModel([
      () => {
        clock.advance(901_000);
        return toolTurn("", call("list_files"));
      },
      () => {
        clock.advance(61_000);
        return new Promise(() => {}); // never answers
      },
    ]);
    const options = await reviewOptions(model, { clock });
    const report = await reviewLens(options);
    expect(report).toMatchObject({
      outcome: "failed",
      verdict: null,
      findings: [],
      failure: "timed out after 900 s, and no answer came in the final turn",
    });
    expect(eventTrail(options.events).at(-1)).toBe(
      "failed timed out after 900 s, and no answer came in the final turn",
    );
  });

  it("ends as cancelled when the signal aborts in the middle of a call", async () => {
    const controller = new AbortController();
    const model = scriptedChatModel([
      () => {
        queueMicrotask(() => controller.abort("superseded by a newer push"));
        return new Promise(() => {}); // an adapter that ignores the signal
      },
    ]);
    const options = await reviewOptions(model, { signal: controller.signal });
    const report = await reviewLens(options);
    expect(report).toMatchObject({
      outcome: "cancelled",
      verdict: null,
      failure: "superseded by a newer push",
      findings: [],
    });
    expect(eventTrail(options.events)).toEqual([
      "running 1",
      "cancelled superseded by a newer push",
    ]);
  });

  it("does not start when already cancelled", async () => {
    const controller = new AbortController();
    controller.abort();
    const model = scriptedChatModel([]);
    const report = await reviewLens(await reviewOptions(model, { signal: controller.signal }));
    expect(report).toMatchObject({ outcome: "cancelled", failure: "cancelled", turns: 0 });
    expect(model.requests).toHaveLength(0);
  });

  it("fails with the model error's public message", async () => {
    const model = scriptedChatModel([
      () => {
        throw new ModelError("openai: 401 unauthorized (check OPENAI_API_KEY)", {
          statusCode: 401,
        });
      },
    ]);
    const report = await reviewLens(await reviewOptions(model));
    expect(report).toMatchObject({
      outcome: "failed",
      failure: "openai: 401 unauthorized (check OPENAI_API_KEY)",
      verdict: null,
    });
  });

  it("does not publish the message of an unexpected error", async () => {
    const model = scriptedChatModel([
      () => {
        throw new TypeError("cannot read /home/gadfly/.config/keys.json");
      },
    ]);
    const report = await reviewLens(await reviewOptions(model));
    expect(report.failure).toBe("internal error (TypeError)");
  });

  it("keeps reviewing when the event sink throws", async () => {
    const model = scriptedChatModel([
      answer(renderLensAnswer("Significant issues", [sqlInjection])),
    ]);
    const report = await reviewLens(
      await reviewOptions(model, {
        onEvent: () => {
          throw new Error("board is down");
        },
      }),
    );
    expect(report).toMatchObject({ outcome: "done", verdict: "Significant issues" });
  });

  it("derives the verdict from the findings, keeping the model's own line apart", async () => {
    const model = scriptedChatModel([answer(renderLensAnswer("Minor issues", [sqlInjection]))]);
    const report = await reviewLens(await reviewOptions(model));
    expect(report).toMatchObject({ verdict: "Significant issues", statedVerdict: "Minor issues" });
  });

  it("names block entries it could not use instead of dropping them silently", async () => {
    const text = `VERDICT: Minor issues\n\`\`\`gadfly-findings\n[{"file": "src/db.js", "line": 13, "severity": "medium", "title": "Offset skips a row"}, {"file": "src/db.js", "severity": "high", "title": "No line"}]\n\`\`\``;
    const model = scriptedChatModel([answer(text)]);
    const report = await reviewLens(await reviewOptions(model));
    expect(report.findings).toHaveLength(1);
    expect(report.text).toContain(
      '_Gadfly could not read 1 entry of the findings block: finding 2 (src/db.js): missing or invalid "line"._',
    );
  });

  it("answers calls beyond the per-turn cap and past the output budget with errors", async () => {
    const model = scriptedChatModel([
      toolTurn("", call("read_file", { path: "src/db.js" }), call("list_files")),
      toolTurn("", call("read_file", { path: "src/server.js" })),
      answer(renderLensAnswer("No material issues found", [])),
    ]);
    const options = await reviewOptions(model, { maxToolCallsPerTurn: 1, maxToolOutputBytes: 100 });
    const report = await reviewLens(options);
    expect(report.outcome).toBe("done");
    const results = toolResults(model.requests[2]?.messages ?? []);
    expect(results[0]).toContain("1\timport { Pool }");
    expect(results[1]).toBe("error: not run: at most 1 tool calls per turn");
    expect(results[2]).toBe(
      "error: not run: the tool output budget of this review is spent; give your answer",
    );
    expect(eventTrail(options.events).filter((entry) => entry.startsWith("tool"))).toEqual([
      "tool read_file src/db.js",
    ]);
  });
});
