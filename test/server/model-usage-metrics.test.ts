import { describe, expect, it } from "vitest";
import { createGadflyMetrics } from "../../src/server/gadfly-metrics.js";
import { parseExposition } from "./helpers/parse-exposition.js";

describe("gadfly_model_tokens_total and gadfly_model_cost_usd_total", () => {
  it("add each piece of model work's tokens by kind, and its cost only when priced", async () => {
    const metrics = createGadflyMetrics();
    const spend = { inputTokens: 1_000, cachedInputTokens: 600, outputTokens: 50 };
    metrics.modelUsage("gpt-5.1", { ...spend, costUsd: 0.0015 });
    metrics.modelUsage("gpt-5.1", { ...spend, costUsd: 0.0025 });
    metrics.modelUsage("glm-5.2:cloud", { ...spend, costUsd: null });

    const text = await metrics.render();
    expect(text).toContain(
      "# HELP gadfly_model_tokens_total Tokens the providers reported, by model and kind: input (every input token, cached ones included), cached_input (of input, read from a prompt cache), output.",
    );
    expect(text).toContain("# TYPE gadfly_model_cost_usd_total counter");
    const families = parseExposition(text);
    const values = (name: string) =>
      (families.find((family) => family.name === name)?.samples ?? []).map((sample) => [
        Object.values(sample.labels).join(","),
        sample.value,
      ]);
    expect(values("gadfly_model_tokens_total")).toEqual([
      ["gpt-5.1,input", 2_000],
      ["gpt-5.1,cached_input", 1_200],
      ["gpt-5.1,output", 100],
      ["glm-5.2:cloud,input", 1_000],
      ["glm-5.2:cloud,cached_input", 600],
      ["glm-5.2:cloud,output", 50],
    ]);
    // No price, no cost series: a zero would read as "free".
    expect(values("gadfly_model_cost_usd_total")).toEqual([["gpt-5.1", 0.004]]);
  });
});
