import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/config/config-error.js";
import { parseConfigText } from "../../src/config/parse-config-text.js";
import { DEFAULT_REPO_CONFIG } from "../../src/config/repo-config-schema.js";
import { resolveReviewPlan } from "../../src/config/resolve-review-plan.js";
import { AppConfig } from "../../src/config/schema.js";

const yaml = (models: string, extra = "") => `
providers:
  - name: cloud
    type: openai
models:
${models}
${extra}`;

function issuesOf(text: string): string[] {
  try {
    parseConfigText("gadfly.config.yml", text, AppConfig);
  } catch (error) {
    if (error instanceof ConfigError) return error.issues.map((i) => `${i.path}: ${i.message}`);
    throw error;
  }
  return [];
}

describe("models[].price in the app config", () => {
  it("gives the plan a price per priced model, fallbacks included, and none to an unpriced one", () => {
    const config = parseConfigText(
      "gadfly.config.yml",
      yaml(`  - { id: big, provider: cloud, fallbacks: [small], price: { input: 1.25, cachedInput: 0.125, output: 10 } }
  - { id: small, provider: cloud, price: { input: 0.25, output: 2 } }
  - { id: local, provider: cloud }`),
      AppConfig,
    );
    expect(config.models[0]?.price).toEqual({ input: 1.25, cachedInput: 0.125, output: 10 });
    const plan = resolveReviewPlan(config, { ...DEFAULT_REPO_CONFIG, models: ["big", "local"] });
    expect(plan.pricing).toEqual({
      big: { input: 1.25, cachedInput: 0.125, output: 10 },
      small: { input: 0.25, output: 2 },
    });
  });

  it.each([
    [
      "an unknown field",
      "  - { id: big, provider: cloud, price: { input: 1, output: 2, cached: 0.1 } }",
      'models[0].price: Unrecognized key: "cached"',
    ],
    [
      "a missing output price",
      "  - { id: big, provider: cloud, price: { input: 1 } }",
      "models[0].price.output: Invalid input: expected number, received undefined",
    ],
    [
      "a negative price",
      "  - { id: big, provider: cloud, price: { input: -1, output: 2 } }",
      "models[0].price.input: Too small: expected number to be >=0",
    ],
  ])("refuses %s, naming the field", (_name, models, issue) => {
    expect(issuesOf(yaml(models))).toEqual([issue]);
  });

  it("no longer takes the unreleased top-level pricing table", () => {
    const issues = issuesOf(
      yaml("  - { id: big, provider: cloud }", "pricing:\n  big: { input: 1, output: 2 }\n"),
    );
    expect(issues).toHaveLength(1);
    expect(issues[0]).toContain("pricing");
  });
});
