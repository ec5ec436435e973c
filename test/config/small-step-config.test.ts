import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/config/config-error.js";
import { parseConfigText } from "../../src/config/parse-config-text.js";
import { DEFAULT_REPO_CONFIG } from "../../src/config/repo-config-schema.js";
import { resolveReviewPlan } from "../../src/config/resolve-review-plan.js";
import { AppConfig } from "../../src/config/schema.js";

const yaml = (smallStep: string) => `
providers:
  - name: cloud
    type: openai
models:
  - { id: big, provider: cloud }
  - { id: small, provider: cloud }
review:
  lenses: [security, correctness]
${smallStep}`;

function issuesOf(text: string): string[] {
  try {
    parseConfigText("gadfly.config.yml", text, AppConfig);
  } catch (error) {
    if (error instanceof ConfigError) return error.issues.map((i) => `${i.path}: ${i.message}`);
    throw error;
  }
  return [];
}

describe("review.smallStep in the app config", () => {
  it("reaches the plan as written, a missing key at its default; absent, none (the defaults apply)", () => {
    const config = parseConfigText(
      "gadfly.config.yml",
      yaml("  smallStep: { maxChangedLines: 0 }"),
      AppConfig,
    );
    expect(resolveReviewPlan(config, DEFAULT_REPO_CONFIG).review.smallStep).toEqual({
      maxChangedLines: 0,
      reviewersPerLens: 1,
    });
    const plain = parseConfigText("gadfly.config.yml", yaml(""), AppConfig);
    expect(plain.review.smallStep).toBeUndefined();
  });

  it("names the field of a bad value or an unknown key", () => {
    const negative = issuesOf(yaml("  smallStep: { maxChangedLines: -1 }"));
    expect(negative.join("\n")).toContain("review.smallStep.maxChangedLines");
    const none = issuesOf(yaml("  smallStep: { reviewersPerLens: 0 }"));
    expect(none.join("\n")).toContain("review.smallStep.reviewersPerLens");
    const typo = issuesOf(yaml("  smallStep: { maxLines: 10 }"));
    expect(typo.join("\n")).toMatch(/review\.smallStep.*maxLines/);
  });
});
