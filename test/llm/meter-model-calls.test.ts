import { describe, expect, it } from "vitest";
import { addUsage } from "../../src/llm/add-usage.js";
import type { ChatModel, ChatResult, Usage } from "../../src/llm/language-model.js";
import { meterModelCalls } from "../../src/llm/meter-model-calls.js";
import { wrapLanguageModel } from "../../src/llm/wrap-language-model.js";

const messages = [{ role: "user" as const, content: "x".repeat(4000) }];

function metered(answer: () => Promise<ChatResult>) {
  const total: Usage = { inputTokens: 0, outputTokens: 0 };
  const inner: ChatModel = { kind: "chat", provider: "p", modelId: "m", chat: answer };
  const model = wrapLanguageModel(
    inner,
    meterModelCalls((used) => addUsage(total, used)),
  );
  /** A call as the tool loop makes it: the answer's usage added, an error thrown on. */
  const call = async () => {
    const result = await model.chat({ messages });
    addUsage(total, result.usage);
  };
  return { total, call };
}

const answered = (usage: Usage): ChatResult => ({
  text: "ok",
  toolCalls: [],
  finishReason: "stop",
  usage,
});

describe("meterModelCalls", () => {
  it("ends with what the provider reported when it answered with its usage", async () => {
    const { total, call } = metered(async () =>
      answered({ inputTokens: 1234, outputTokens: 56, cachedInputTokens: 1000 }),
    );
    await call();
    expect(total).toEqual({ inputTokens: 1234, outputTokens: 56, cachedInputTokens: 1000 });
  });

  it("keeps the request's estimate, marked estimated, when the call failed or was aborted", async () => {
    for (const error of [new Error("502"), new DOMException("aborted", "AbortError")]) {
      const { total, call } = metered(async () => {
        throw error;
      });
      await expect(call()).rejects.toBe(error);
      expect(total).toEqual({ inputTokens: 1000, outputTokens: 0, estimatedInputTokens: 1000 });
    }
  });

  it("keeps the estimate when the provider answered but reported nothing", async () => {
    const { total, call } = metered(async () => answered({ inputTokens: 0, outputTokens: 0 }));
    await call();
    expect(total).toEqual({ inputTokens: 1000, outputTokens: 0, estimatedInputTokens: 1000 });
  });

  it("charges the estimate before the answer comes: an aborted lens reads it at once", async () => {
    let release: (() => void) | undefined;
    const { total, call } = metered(
      () =>
        new Promise((resolve) => {
          release = () => resolve(answered({ inputTokens: 900, outputTokens: 10 }));
        }),
    );
    const pending = call();
    expect(total.inputTokens).toBe(1000);
    release?.();
    await pending;
    expect(total).toEqual({ inputTokens: 900, outputTokens: 10 });
  });
});
