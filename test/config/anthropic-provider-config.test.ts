import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/config/config-error.js";
import { parseConfigText } from "../../src/config/parse-config-text.js";
import { AppConfig } from "../../src/config/schema.js";
import { createLanguageModel } from "../../src/llm/create-language-model.js";
import type { ChatModel } from "../../src/llm/language-model.js";
import { startFakeAnthropicServer } from "../fakes/fake-anthropic-server.js";

const yaml = (provider: string, model: string) => `
providers:
  - name: ollama
    type: ollama
  - name: claude
    type: anthropic
${provider}
models:
  - { id: "qwen", provider: ollama }
  - { id: "sonnet", provider: claude, model: "claude-sonnet-4-6"${model} }
`;

function issuesOf(text: string): string[] {
  try {
    parseConfigText("gadfly.config.yml", text, AppConfig);
  } catch (error) {
    if (error instanceof ConfigError) {
      return error.issues.map((issue) => `${issue.path}: ${issue.message}`);
    }
    throw error;
  }
  return [];
}

describe("the anthropic provider in the app config", () => {
  it("fills the defaults: the public API, 8192 output tokens, prompt caching on", () => {
    const config = parseConfigText(
      "gadfly.config.yml",
      yaml("    apiKeyEnv: ANTHROPIC_API_KEY", ", thinkingBudgetTokens: 4096"),
      AppConfig,
    );
    expect(config.providers[1]).toEqual({
      name: "claude",
      type: "anthropic",
      baseURL: "https://api.anthropic.com",
      apiKeyEnv: "ANTHROPIC_API_KEY",
      maxOutputTokens: 8192,
      promptCaching: true,
    });
    expect(config.models[1]?.thinkingBudgetTokens).toBe(4096);
  });

  it.each([
    ["a non-http baseURL", yaml("    baseURL: ftp://gateway", ""), "providers[1].baseURL"],
    ["a bad key variable name", yaml("    apiKeyEnv: not a name", ""), "providers[1].apiKeyEnv"],
    ["an unknown key", yaml("    apiKey: sk-ant-inline", ""), "providers[1]"],
    ["too few output tokens", yaml("    maxOutputTokens: 10", ""), "providers[1].maxOutputTokens"],
    [
      "a thinking budget under the API's minimum",
      yaml("", ", thinkingBudgetTokens: 100"),
      "models[1].thinkingBudgetTokens",
    ],
  ])("names the field of %s", (_name, text, path) => {
    const issues = issuesOf(text);
    expect(
      issues.some((issue) => issue.startsWith(`${path}:`)),
      issues.join("\n"),
    ).toBe(true);
  });

  it("refuses a thinking budget on a model of another provider type, naming both", () => {
    const text = yaml("", "").replace(
      '{ id: "qwen", provider: ollama }',
      '{ id: "qwen", provider: ollama, thinkingBudgetTokens: 2048 }',
    );
    expect(issuesOf(text)).toEqual([
      'models[0].thinkingBudgetTokens: only models of an anthropic provider take a thinking budget ("ollama" is ollama)',
    ]);
  });

  it("builds a model that reads its key from the named variable and thinks with the model's budget", async () => {
    const key = "sk-ant-config-test-9876543210";
    const fake = await startFakeAnthropicServer({ apiKey: key });
    try {
      fake.script("claude-sonnet-4-6", [{ text: "VERDICT: fine" }]);
      const config = parseConfigText(
        "gadfly.config.yml",
        yaml(`    baseURL: ${fake.url}\n    apiKeyEnv: CLAUDE_KEY`, ", thinkingBudgetTokens: 2048"),
        AppConfig,
      );
      const [, provider] = config.providers;
      const [, model] = config.models;
      if (provider === undefined || model === undefined) throw new Error("config");
      const chat = createLanguageModel({
        model,
        provider,
        env: { CLAUDE_KEY: key },
        lens: "security",
      }) as ChatModel;
      await expect(
        chat.chat({ messages: [{ role: "user", content: "hi" }] }),
      ).resolves.toMatchObject({
        text: "VERDICT: fine",
      });
      expect(fake.unauthorized).toBe(0);
      expect(fake.requests[0]?.body).toMatchObject({
        model: "claude-sonnet-4-6",
        max_tokens: 8192 + 2048,
        thinking: { type: "enabled", budget_tokens: 2048 },
      });
      expect(() => createLanguageModel({ model, provider, env: {}, lens: "security" })).toThrow(
        "claude: the API key variable CLAUDE_KEY is not set",
      );
    } finally {
      await fake.close();
    }
  });
});
