import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/config/config-error.js";
import { parseConfigText } from "../../src/config/parse-config-text.js";
import { DEFAULT_REPO_CONFIG, RepoConfig } from "../../src/config/repo-config-schema.js";
import { resolveReviewPlan } from "../../src/config/resolve-review-plan.js";
import { AppConfig } from "../../src/config/schema.js";

const SOURCE = ".github/gadfly.yml";
const app = AppConfig.parse({
  providers: [{ name: "local", type: "ollama" }],
  models: [{ id: "m1", provider: "local" }],
});

describe("learn (repository config)", () => {
  it("is off unless the repository opts in with `learn: repo`, and reaches the plan", () => {
    expect(resolveReviewPlan(app, DEFAULT_REPO_CONFIG).learn).toBe("off");
    const opted = parseConfigText(SOURCE, "learn: repo\n", RepoConfig);
    expect(resolveReviewPlan(app, opted).learn).toBe("repo");
  });

  it("refuses any other value, naming the field", () => {
    let caught: unknown;
    try {
      parseConfigText(SOURCE, "learn: org\n", RepoConfig);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as ConfigError).issues.map((issue) => issue.path)).toEqual(["learn"]);
  });
});
