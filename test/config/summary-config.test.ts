import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/config/config-error.js";
import { parseConfigText } from "../../src/config/parse-config-text.js";
import { DEFAULT_REPO_CONFIG, RepoConfig } from "../../src/config/repo-config-schema.js";
import { resolveReviewPlan } from "../../src/config/resolve-review-plan.js";
import { AppConfig } from "../../src/config/schema.js";

const SOURCE = ".github/gadfly.yml";
const appWith = (extra: Record<string, unknown> = {}) =>
  AppConfig.parse({
    providers: [{ name: "local", type: "ollama" }],
    models: [{ id: "m1", provider: "local" }],
    ...extra,
  });

describe("summary (repository and app config)", () => {
  it("is on by default, off when the repository or the app says `summary: false`", () => {
    expect(resolveReviewPlan(appWith(), DEFAULT_REPO_CONFIG).summary).toBe(true);
    const off = parseConfigText(SOURCE, "summary: false\n", RepoConfig);
    expect(resolveReviewPlan(appWith(), off).summary).toBe(false);
    expect(resolveReviewPlan(appWith({ summary: false }), DEFAULT_REPO_CONFIG).summary).toBe(false);
    // The app cannot turn it on for a repository that turned it off.
    expect(resolveReviewPlan(appWith({ summary: true }), off).summary).toBe(false);
  });

  it("refuses a value that is not a boolean, naming the field", () => {
    let caught: unknown;
    try {
      parseConfigText(SOURCE, "summary: maybe\n", RepoConfig);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as ConfigError).issues.map((issue) => issue.path)).toEqual(["summary"]);
  });
});
