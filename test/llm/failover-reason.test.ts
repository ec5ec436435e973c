import { describe, expect, it } from "vitest";
import {
  InvalidModelResponseError,
  ModelAbortedError,
  ModelError,
  ModelTimeoutError,
} from "../../src/llm/errors.js";
import { failoverReason } from "../../src/llm/failover-reason.js";
import {
  EmptyCompletionError,
  guardEmptyCompletions,
} from "../../src/llm/guard-empty-completions.js";
import type { ChatModel, ChatResult } from "../../src/llm/language-model.js";

describe("failoverReason", () => {
  it.each([
    [
      "a 503 after the last retry",
      new ModelError("p: HTTP 503: down", { statusCode: 503, isRetryable: true }),
      "503",
    ],
    ["a 401", new ModelError("p: HTTP 401: bad key", { statusCode: 401 }), "401"],
    [
      "a network error",
      new ModelError("p: network error (ECONNREFUSED)", { isRetryable: true }),
      "network error (ECONNREFUSED)",
    ],
    [
      "a missing key",
      new ModelError("p: the API key variable K is not set"),
      "the API key variable K is not set",
    ],
    [
      "an unusable answer",
      new InvalidModelResponseError("p: the answer has no choices"),
      "the answer has no choices",
    ],
    ["two empty answers", new EmptyCompletionError("p"), "empty completion twice"],
    [
      "a model error behind a lens failure",
      Object.assign(new Error("repair failed"), {
        cause: new ModelError("p: HTTP 529: overloaded", { statusCode: 529 }),
      }),
      "529",
    ],
  ])("hops on %s", (_name, error, reason) => {
    expect(failoverReason(error)).toBe(reason);
  });

  it.each([
    ["a cancellation", new ModelAbortedError()],
    ["the lens's own timeout", new ModelTimeoutError("timed out after 900 s")],
    ["an answer without a findings block", new Error("no findings block")],
    ["anything else", "a string"],
  ])("stays on %s", (_name, error) => {
    expect(failoverReason(error)).toBeUndefined();
  });
});

describe("guardEmptyCompletions", () => {
  const result = (text: string, tools = 0): ChatResult => ({
    text,
    toolCalls: Array.from({ length: tools }, (_, index) => ({
      id: `c${index}`,
      name: "grep",
      arguments: "{}",
    })),
    finishReason: "stop",
    usage: { inputTokens: 1, outputTokens: 1 },
  });

  function model(answers: ChatResult[]): ChatModel {
    return {
      kind: "chat",
      provider: "p",
      modelId: "m",
      chat: async () => answers.shift() ?? result("end"),
    };
  }

  it("throws on the second empty answer in a row, not the first", async () => {
    const guarded = guardEmptyCompletions(model([result(""), result("  ")])) as ChatModel;
    await expect(guarded.chat({ messages: [] })).resolves.toMatchObject({ text: "" });
    await expect(guarded.chat({ messages: [] })).rejects.toBeInstanceOf(EmptyCompletionError);
  });

  it("counts only empty answers in a row: text or a tool call in between resets it", async () => {
    const guarded = guardEmptyCompletions(
      model([result(""), result("", 1), result(""), result("answer"), result("")]),
    ) as ChatModel;
    for (let call = 0; call < 5; call++) await guarded.chat({ messages: [] });
  });

  it("guards agent runs too", async () => {
    const guarded = guardEmptyCompletions({
      kind: "agent",
      provider: "p",
      modelId: "m",
      run: async () => ({ text: "", transcript: [], usage: { inputTokens: 0, outputTokens: 0 } }),
    });
    if (guarded.kind !== "agent") throw new Error("kind");
    await guarded.run({ prompt: "p", cwd: "/" });
    await expect(guarded.run({ prompt: "p", cwd: "/" })).rejects.toThrow(
      "p: empty completion twice",
    );
  });
});
