import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/config/config-error.js";
import { parseConfigText } from "../../src/config/parse-config-text.js";
import { REPO_CONFIG_LIMITS } from "../../src/config/repo-config-limits.js";
import { DEFAULT_REPO_CONFIG, RepoConfig } from "../../src/config/repo-config-schema.js";
import { resolveReviewPlan } from "../../src/config/resolve-review-plan.js";
import { AppConfig } from "../../src/config/schema.js";

/** Three models, five lenses: at most 15 reviewers (20 with a repository's... none here). */
const app = AppConfig.parse({
  providers: [{ name: "local", type: "ollama" }],
  models: [
    { id: "m1", provider: "local" },
    { id: "m2", provider: "local" },
    { id: "m3", provider: "local" },
  ],
});
const SOURCE = ".github/gadfly.yml";

/** What a round gets from a file: its plan, or the defaults and the fields named in the notice. */
function planFor(text: string): { reviewers: number; issues: string[] } {
  try {
    const plan = resolveReviewPlan(app, parseConfigText(SOURCE, text, RepoConfig));
    return { reviewers: plan.models.length * plan.lenses.length, issues: [] };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const plan = resolveReviewPlan(app, DEFAULT_REPO_CONFIG);
    return {
      reviewers: plan.models.length * plan.lenses.length,
      issues: error.issues.map((issue) => issue.path),
    };
  }
}

const lens = (id: string, prompt = "Look for the things this lens is about, carefully.") =>
  `  - { id: ${id}, title: ${id}, prompt: "${prompt}" }`;

describe("bounds on .github/gadfly.yml", () => {
  const appReviewers = app.models.length * app.review.lenses.length;

  it("500 copies of one model id: refused by count, the round runs the app's defaults", () => {
    const result = planFor(`models: [${Array.from({ length: 500 }, () => "m1").join(", ")}]\n`);
    console.log(
      `500 duplicate model ids → ${result.reviewers} reviewers (app: 3 models × 5 lenses)`,
    );
    expect(result.issues).toEqual(["models"]);
    expect(result.reviewers).toBe(appReviewers);
  });

  it("duplicates within the count are reviewed once: never more models than the app has", () => {
    const ids = Array.from(
      { length: REPO_CONFIG_LIMITS.modelChoices },
      (_, index) => `m${(index % 3) + 1}`,
    );
    const plan = resolveReviewPlan(app, RepoConfig.parse({ models: ids }));
    expect(plan.models.map((model) => model.id)).toEqual(["m1", "m2", "m3"]);
    const one = resolveReviewPlan(app, RepoConfig.parse({ models: ["m2", "m2", "m2"] }));
    expect(one.models.map((model) => model.id)).toEqual(["m2"]);
  });

  it("lenses: deduplicated, capped in count, custom ones capped in count, size and id", () => {
    const repeated = resolveReviewPlan(
      app,
      RepoConfig.parse({ lenses: Array.from({ length: 30 }, () => "security") }),
    );
    expect(repeated.lenses).toEqual(["security"]);
    expect(
      planFor(`lenses: [${Array.from({ length: 31 }, () => "security").join(", ")}]\n`).issues,
    ).toEqual(["lenses"]);

    const eleven = Array.from({ length: REPO_CONFIG_LIMITS.customLenses + 1 }, (_, index) =>
      lens(`extra-${index}`),
    );
    expect(planFor(`customLenses:\n${eleven.join("\n")}\n`).issues).toEqual(["customLenses"]);

    const huge = "x".repeat(REPO_CONFIG_LIMITS.customLensPromptChars + 1);
    expect(planFor(`customLenses:\n${lens("big", huge)}\n`).issues).toEqual([
      "customLenses[0].prompt",
    ]);

    expect(planFor(`customLenses:\n${lens("twice")}\n${lens("twice")}\n`).issues).toEqual([
      "customLenses[1].id",
    ]);
    // A custom lens cannot shadow one of the app's: its prompt would be silently ignored.
    expect(planFor(`customLenses:\n${lens("security")}\n`).issues).toEqual(["customLenses[0].id"]);

    // The most a file can ask for: every app model through every app lens and ten of its own.
    const ten = Array.from({ length: REPO_CONFIG_LIMITS.customLenses }, (_, index) =>
      lens(`extra-${index}`),
    );
    const most = planFor(`models: [m1, m1, m2, m3, m3]\ncustomLenses:\n${ten.join("\n")}\n`);
    expect(most.issues).toEqual([]);
    expect(most.reviewers).toBe(
      app.models.length * (app.review.lenses.length + REPO_CONFIG_LIMITS.customLenses),
    );
  });

  it("ignore: a glob outside the safe subset is named by its index", () => {
    const result = planFor('ignore: ["docs/**", "**/*.snap", "*.md", "(a+)+b", "src/**"]\n');
    expect(result.issues).toEqual(["ignore[3]"]);
    expect(result.reviewers).toBe(appReviewers);
    expect(() => parseConfigText(SOURCE, 'ignore: ["docs/**", "+(a|b)"]\n', RepoConfig)).toThrow(
      ".github/gadfly.yml: ignore[1]: '(' at 2: groups and extglobs are not supported (write '\\(' for the character)",
    );
  });

  it("ignore: capped in count, in length and in matcher size", () => {
    const many = Array.from(
      { length: REPO_CONFIG_LIMITS.ignoreGlobs + 1 },
      (_, index) => `"d${index}/**"`,
    );
    expect(planFor(`ignore: [${many.join(", ")}]\n`).issues).toEqual(["ignore"]);
    const long = `"${"a".repeat(REPO_CONFIG_LIMITS.ignoreGlobChars + 1)}"`;
    expect(planFor(`ignore: [${long}]\n`).issues).toEqual(["ignore[0]"]);
    // Each glob is fine alone; together they would make matching each path too costly.
    const heavy = Array.from({ length: 40 }, (_, index) => `"**/${"*a".repeat(40)}*${index}"`);
    const issues = planFor(`ignore: [${heavy.join(", ")}]\n`).issues;
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatch(/^ignore\[(\d+)\]$/);
  });
});
