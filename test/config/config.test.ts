import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/config/config-error.js";
import { loadAppConfig } from "../../src/config/load-app-config.js";
import { parseConfigText } from "../../src/config/parse-config-text.js";
import { RepoConfig } from "../../src/config/repo-config-schema.js";
import { resolveReviewPlan } from "../../src/config/resolve-review-plan.js";
import { AppConfig } from "../../src/config/schema.js";

const appYaml = `
providers:
  - name: openai
    type: openai
    baseURL: https://api.openai.com/v1
    apiKeyEnv: OPENAI_API_KEY
  - name: ollama-cloud
    type: ollama
    host: http://127.0.0.1:11434
  - name: claude-code
    type: command
    command: ["claude", "-p", "--model", "{model}"]
models:
  - { id: "glm-5.2:cloud", provider: ollama-cloud, model: "glm-5.2:cloud" }
  - { id: "claude-code/opus", provider: claude-code, model: opus }
  - { id: "gpt", provider: openai }
review:
  concurrency: 4
`;

async function configFile(text: string): Promise<{ dir: string; path: string }> {
  const dir = await mkdtemp(join(tmpdir(), "gadfly-config-"));
  const path = join(dir, "gadfly.config.yml");
  await writeFile(path, text);
  return { dir, path };
}

function issuesOf(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).issues.map((issue) => `${issue.path}: ${issue.message}`);
  }
  throw new Error("expected a ConfigError");
}

describe("loadAppConfig", () => {
  it("reads GADFLY_CONFIG and fills defaults", async () => {
    const { dir } = await configFile(appYaml);
    const config = await loadAppConfig({ GADFLY_CONFIG: "gadfly.config.yml" }, dir);
    expect(config.models.map((model) => model.id)).toEqual([
      "glm-5.2:cloud",
      "claude-code/opus",
      "gpt",
    ]);
    expect(config.review).toEqual({
      lenses: ["security", "correctness", "maintainability", "performance", "error-handling"],
      concurrency: 4,
      verify: true,
      maxTurns: 24,
      timeoutSeconds: 900,
      diffBudgetChars: 24_000,
      debounceSeconds: 30,
    });
  });

  it("names a missing file and how to point at one", async () => {
    await expect(loadAppConfig({ GADFLY_CONFIG: "/nonexistent/gadfly.yml" }, "/")).rejects.toThrow(
      /\/nonexistent\/gadfly.yml: file not found \(set GADFLY_CONFIG/,
    );
  });

  it("reports YAML syntax errors", async () => {
    const { dir } = await configFile("providers: [\n  - name: x");
    // One line, ending with where the problem is (not the colon of the code frame after it).
    await expect(loadAppConfig({}, dir)).rejects.toThrow(
      /gadfly.config.yml: YAML: .+ at line \d+, column \d+$/,
    );
  });
});

describe("AppConfig validation names the field", () => {
  it.each([
    [
      "a bad URL",
      appYaml.replace("https://api.openai.com/v1", "not a url"),
      "providers[0].baseURL",
    ],
    [
      "an unknown provider type",
      appYaml.replace("type: ollama", "type: bedrock"),
      "providers[1].type",
    ],
    ["an unknown key", appYaml.replace("concurrency: 4", "concurrency: 4\n  paralel: 3"), "review"],
    [
      "a zero concurrency",
      appYaml.replace("concurrency: 4", "concurrency: 0"),
      "review.concurrency",
    ],
    [
      "a negative debounce",
      appYaml.replace("concurrency: 4", "concurrency: 4\n  debounceSeconds: -1"),
      "review.debounceSeconds",
    ],
    [
      "a fractional debounce",
      appYaml.replace("concurrency: 4", "concurrency: 4\n  debounceSeconds: 1.5"),
      "review.debounceSeconds",
    ],
    [
      "a debounce over an hour",
      appYaml.replace("concurrency: 4", "concurrency: 4\n  debounceSeconds: 3601"),
      "review.debounceSeconds",
    ],
    [
      "a model of an unknown provider",
      appYaml.replace("provider: openai }", "provider: opnai }"),
      "models[2].provider",
    ],
    ["a duplicate model id", appYaml.replace('id: "gpt"', 'id: "glm-5.2:cloud"'), "models[2].id"],
    [
      "a non-http host",
      appYaml.replace("http://127.0.0.1:11434", "file:///etc/passwd"),
      "providers[1].host",
    ],
    [
      "an empty command",
      appYaml.replace('command: ["claude", "-p", "--model", "{model}"]', "command: []"),
      "providers[2].command",
    ],
  ])("%s", (_name, text, path) => {
    const issues = issuesOf(() => parseConfigText("gadfly.config.yml", text, AppConfig));
    expect(
      issues.some((issue) => issue.startsWith(`${path}:`)),
      issues.join("\n"),
    ).toBe(true);
  });
});

describe("RepoConfig", () => {
  const app = parseConfigText("app", appYaml, AppConfig);

  it("defaults to every app model and lens", () => {
    const plan = resolveReviewPlan(app, RepoConfig.parse({}));
    expect(plan.models.map((model) => model.id)).toEqual([
      "glm-5.2:cloud",
      "claude-code/opus",
      "gpt",
    ]);
    expect(plan.lenses).toEqual([
      "security",
      "correctness",
      "maintainability",
      "performance",
      "error-handling",
    ]);
  });

  it("narrows models and adds a lens of its own", () => {
    const repo = parseConfigText(
      ".github/gadfly.yml",
      `models: [gpt]\nlenses: [security, accessibility]\ncustomLenses:\n  - id: accessibility\n    title: Accessibility\n    prompt: Look for missing labels, focus traps and colour-only signals.\n`,
      RepoConfig,
    );
    const plan = resolveReviewPlan(app, repo);
    expect(plan.models.map((model) => model.id)).toEqual(["gpt"]);
    expect(plan.lenses).toEqual(["security", "accessibility"]);
    expect(plan.customLenses.map((lens) => lens.id)).toEqual(["accessibility"]);
  });

  it("can never add a provider, a host or a key", () => {
    for (const text of [
      "providers:\n  - name: evil\n    type: openai\n    baseURL: https://evil.example/v1",
      "models:\n  - { id: x, provider: openai, baseURL: https://evil.example }",
      "apiKeyEnv: OPENAI_API_KEY",
    ]) {
      expect(() => parseConfigText(".github/gadfly.yml", text, RepoConfig)).toThrow(ConfigError);
    }
  });

  it("names unknown models and lenses", () => {
    const repo = RepoConfig.parse({ models: ["gpt", "gpt-9"], lenses: ["security", "vibes"] });
    const issues = issuesOf(() => resolveReviewPlan(app, repo));
    expect(issues).toEqual([
      'models[1]: unknown model "gpt-9" (this app has: glm-5.2:cloud, claude-code/opus, gpt)',
      'lenses[1]: unknown lens "vibes" (available: security, correctness, maintainability, performance, error-handling)',
    ]);
  });

  it("turns a size cap that downshifts into the plan's second downshift, naming unknown choices", () => {
    const repo = RepoConfig.parse({
      filters: {
        maxSize: { changedLines: 800, over: "downshift", models: ["gpt"], lenses: ["security"] },
      },
    });
    expect(resolveReviewPlan(app, repo).sizeDownshift).toEqual({
      aboveChangedLines: 800,
      models: ["gpt"],
      lenses: ["security"],
    });
    expect(resolveReviewPlan(app, RepoConfig.parse({})).sizeDownshift).toBeUndefined();
    const unknown = RepoConfig.parse({
      filters: { maxSize: { files: 9, over: "downshift", models: ["gpt-9"], lenses: ["vibes"] } },
    });
    expect(issuesOf(() => resolveReviewPlan(app, unknown))).toEqual([
      'filters.maxSize.models[0]: unknown model "gpt-9" (this app has: glm-5.2:cloud, claude-code/opus, gpt)',
      'filters.maxSize.lenses[0]: unknown lens "vibes" (available: security, correctness, maintainability, performance, error-handling)',
    ]);
  });
});
