import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/config/config-error.js";
import { parseConfigText } from "../../src/config/parse-config-text.js";
import { DEFAULT_REPO_CONFIG } from "../../src/config/repo-config-schema.js";
import { resolveReviewPlan } from "../../src/config/resolve-review-plan.js";
import { AppConfig } from "../../src/config/schema.js";

const yaml = (models: string) => `
providers:
  - name: cloud
    type: ollama
    host: https://ollama.com
models:
${models}
`;

function issuesOf(text: string): string[] {
  try {
    parseConfigText("gadfly.config.yml", text, AppConfig);
  } catch (error) {
    if (error instanceof ConfigError) return error.issues.map((i) => `${i.path}: ${i.message}`);
    throw error;
  }
  return [];
}

describe("model fallbacks in the app config", () => {
  it("accepts a chain of other known models", () => {
    const config = parseConfigText(
      "gadfly.config.yml",
      yaml(`  - { id: glm, provider: cloud, fallbacks: [kimi, qwen] }
  - { id: kimi, provider: cloud, fallbacks: [qwen] }
  - { id: qwen, provider: cloud }`),
      AppConfig,
    );
    expect(config.models[0]?.fallbacks).toEqual(["kimi", "qwen"]);
  });

  it.each([
    [
      "an unknown model",
      "  - { id: glm, provider: cloud, fallbacks: [kimmi] }\n  - { id: kimi, provider: cloud }",
      'models[0].fallbacks[0]: unknown model "kimmi" (known: glm, kimi)',
    ],
    [
      "the model itself",
      "  - { id: glm, provider: cloud, fallbacks: [glm] }",
      'models[0].fallbacks[0]: "glm" is this model itself',
    ],
    [
      "a repeat",
      "  - { id: glm, provider: cloud, fallbacks: [kimi, kimi] }\n  - { id: kimi, provider: cloud }",
      'models[0].fallbacks[1]: "kimi" is listed twice',
    ],
    [
      "a cycle",
      "  - { id: glm, provider: cloud, fallbacks: [kimi] }\n  - { id: kimi, provider: cloud, fallbacks: [qwen] }\n  - { id: qwen, provider: cloud, fallbacks: [glm] }",
      "models[0].fallbacks: fallbacks form a cycle: glm → kimi → qwen → glm",
    ],
  ])("refuses %s, naming the field", (_name, models, issue) => {
    expect(issuesOf(yaml(models))).toEqual([issue]);
  });

  it("plans the fallbacks a repository's narrower model list leaves out", () => {
    const config = parseConfigText(
      "gadfly.config.yml",
      yaml(`  - { id: glm, provider: cloud, fallbacks: [kimi] }
  - { id: kimi, provider: cloud }
  - { id: qwen, provider: cloud }`),
      AppConfig,
    );
    const narrowed = resolveReviewPlan(config, { ...DEFAULT_REPO_CONFIG, models: ["glm", "qwen"] });
    expect(narrowed.fallbackModels?.map((model) => model.id)).toEqual(["kimi"]);
    const all = resolveReviewPlan(config, DEFAULT_REPO_CONFIG);
    expect(all.fallbackModels).toEqual([]);
  });
});
