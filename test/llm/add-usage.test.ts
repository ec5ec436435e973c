import { describe, expect, it } from "vitest";
import { addUsage } from "../../src/llm/add-usage.js";
import type { Usage } from "../../src/llm/language-model.js";

describe("addUsage", () => {
  it("adds tokens and keeps the cache counts only once a provider reported one", () => {
    const total: Usage = { inputTokens: 0, outputTokens: 0 };
    addUsage(total, { inputTokens: 100, outputTokens: 10 });
    expect(total).toEqual({ inputTokens: 100, outputTokens: 10 });
    addUsage(total, {
      inputTokens: 1000,
      outputTokens: 5,
      cachedInputTokens: 0,
      cacheWriteTokens: 900,
    });
    addUsage(total, {
      inputTokens: 1000,
      outputTokens: 5,
      cachedInputTokens: 900,
      cacheWriteTokens: 0,
    });
    expect(total).toEqual({
      inputTokens: 2100,
      outputTokens: 20,
      cachedInputTokens: 900,
      cacheWriteTokens: 900,
    });
  });
});
