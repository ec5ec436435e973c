import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/config/config-error.js";
import { parseConfigText } from "../../src/config/parse-config-text.js";
import { DEFAULT_REPO_CONFIG } from "../../src/config/repo-config-schema.js";
import { resolveReviewPlan } from "../../src/config/resolve-review-plan.js";
import { AppConfig } from "../../src/config/schema.js";

const yaml = (budget: string, price = "price: { input: 1, output: 2 }") => `
providers:
  - name: cloud
    type: openai
models:
  - { id: big, provider: cloud, ${price} }
  - { id: small, provider: cloud, price: { input: 0, output: 0 } }
review:
  lenses: [security, correctness, performance]
${budget}`;

function issuesOf(text: string): string[] {
  try {
    parseConfigText("gadfly.config.yml", text, AppConfig);
  } catch (error) {
    if (error instanceof ConfigError) return error.issues.map((i) => `${i.path}: ${i.message}`);
    throw error;
  }
  return [];
}

describe("budget in the app config", () => {
  it("reaches the plan as written; none by default", () => {
    const config = parseConfigText(
      "gadfly.config.yml",
      yaml(`budget:
  roundTokens: 400000
  dailyTokens: 5000000
  dailyCostUsd: 25
  downshift: { aboveChangedLines: 1000, aboveFiles: 40, lenses: [security, correctness], models: [big] }`),
      AppConfig,
    );
    const plan = resolveReviewPlan(config, DEFAULT_REPO_CONFIG);
    expect(plan.budget).toEqual({
      roundTokens: 400_000,
      dailyTokens: 5_000_000,
      dailyCostUsd: 25,
      downshift: {
        aboveChangedLines: 1000,
        aboveFiles: 40,
        lenses: ["security", "correctness"],
        models: ["big"],
      },
    });
    expect(parseConfigText("gadfly.config.yml", yaml(""), AppConfig).budget).toEqual({});
  });

  it("names the field of an unknown model or lens in the downshift", () => {
    expect(
      issuesOf(
        yaml(
          "budget: { downshift: { aboveFiles: 10, lenses: [security, style], models: [huge] } }",
        ),
      ),
    ).toEqual([
      'budget.downshift.models[0]: unknown model "huge" (known: big, small)',
      'budget.downshift.lenses[1]: unknown lens "style" (review.lenses: security, correctness, performance)',
    ]);
  });

  it("refuses a downshift without a size or without what it keeps", () => {
    expect(issuesOf(yaml("budget: { downshift: { lenses: [security] } }"))).toEqual([
      "budget.downshift: give aboveChangedLines or aboveFiles (the size above which the round downshifts)",
    ]);
    expect(issuesOf(yaml("budget: { downshift: { aboveFiles: 3 } }"))).toEqual([
      "budget.downshift: give lenses or models (what a downshifted round still runs)",
    ]);
  });

  it("refuses a cost cap while a model has no price, and bad numbers and unknown keys", () => {
    expect(issuesOf(yaml("budget: { dailyCostUsd: 10 }", ""))).toEqual([
      "budget.dailyCostUsd: a cost cap needs a price for every model (models[].price; 0 for a free one), none for: big",
    ]);
    expect(issuesOf(yaml("budget: { dailyTokens: 10 }", ""))).toEqual([]);
    const bad = issuesOf(yaml("budget: { roundTokens: 0, dailyCostUsd: -1, perRound: 5 }"));
    expect(bad.map((issue) => issue.split(":")[0])).toEqual(
      expect.arrayContaining(["budget.roundTokens", "budget.dailyCostUsd", "budget"]),
    );
  });
});
