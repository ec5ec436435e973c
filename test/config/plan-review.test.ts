import { describe, expect, it } from "vitest";
import type { LensDefinition } from "../../src/agent/index.js";
import { ConfigError } from "../../src/config/config-error.js";
import { parseConfigText } from "../../src/config/parse-config-text.js";
import { planReview } from "../../src/config/plan-review.js";
import { RepoConfig } from "../../src/config/repo-config-schema.js";
import { AppConfig } from "../../src/config/schema.js";

const app = parseConfigText(
  "app",
  `
providers:
  - name: openai
    type: openai
    baseURL: https://api.openai.com/v1
    apiKeyEnv: OPENAI_API_KEY
models:
  - { id: "gpt", provider: openai }
  - { id: "gpt-mini", provider: openai }
review:
  lenses: [security, correctness]
`,
  AppConfig,
);

const builtIn: LensDefinition[] = ["security", "correctness"].map((id) => ({
  id,
  title: id,
  emoji: "🔎",
  prompt: `Review for ${id}.`,
  source: "built-in",
}));

describe("planReview", () => {
  it("a loaded config that names what the app lacks runs on the defaults and reports why", () => {
    const loaded = { config: RepoConfig.parse({ models: ["gpt-9"] }), issues: null };
    const planned = planReview(app, loaded, builtIn);
    expect(planned.plan.models.map((model) => model.id)).toEqual(["gpt", "gpt-mini"]);
    expect(planned.lenses.map((lens) => lens.id)).toEqual(["security", "correctness"]);
    expect(planned.issues.map((issue) => issue.path)).toEqual(["models[0]"]);
  });

  it("keeps the issues of a file that did not parse, ahead of the plan's own", () => {
    const fileIssue = { path: "lenses", message: "expected an array" };
    const loaded = { config: RepoConfig.parse({}), issues: [fileIssue] };
    expect(planReview(app, loaded, builtIn).issues).toEqual([fileIssue]);
  });

  it("with both, the file's issues come first, then the plan's, and the plan is the defaults'", () => {
    const fileIssue = { path: "lenses", message: "expected an array" };
    const loaded = { config: RepoConfig.parse({ models: ["gpt-9"] }), issues: [fileIssue] };
    const planned = planReview(app, loaded, builtIn);
    expect(planned.issues.map((issue) => issue.path)).toEqual(["lenses", "models[0]"]);
    expect(planned.plan.models.map((model) => model.id)).toEqual(["gpt", "gpt-mini"]);
  });

  it("describes a repository's own lens after the built-in ones it names", () => {
    const config = RepoConfig.parse({
      lenses: ["a11y", "security"],
      customLenses: [{ id: "a11y", title: "Accessibility", prompt: "Look for missing labels." }],
    });
    const planned = planReview(app, { config, issues: null }, builtIn);
    expect(planned.issues).toEqual([]);
    expect(planned.lenses.map((lens) => [lens.id, lens.source])).toEqual([
      ["a11y", ".github/gadfly.yml"],
      ["security", "built-in"],
    ]);
  });

  it("choices given directly are not defaulted: a bad one is a ConfigError naming the source", () => {
    const choices = RepoConfig.parse({ lenses: ["vibes"] });
    expect(() => planReview(app, choices, builtIn, "command line")).toThrow(ConfigError);
    try {
      planReview(app, choices, builtIn, "command line");
    } catch (error) {
      expect((error as ConfigError).message).toContain("command line");
    }
  });
});
