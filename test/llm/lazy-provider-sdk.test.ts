import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ModelConfig, ProviderConfig } from "../../src/config/schema.js";
import { createLanguageModel } from "../../src/llm/create-language-model.js";
import type { LanguageModel } from "../../src/llm/language-model.js";
import { type FakeOpenAIServer, startFakeOpenAIServer } from "../fakes/fake-openai-server.js";

// Which provider SDKs this test file's module graph has evaluated. Each mock is the real SDK,
// noted as loaded when first imported.
const loaded = vi.hoisted(() => new Set<string>());
vi.mock("openai", async (importOriginal) => {
  loaded.add("openai");
  return importOriginal();
});
vi.mock("ollama", async (importOriginal) => {
  loaded.add("ollama");
  return importOriginal();
});
vi.mock("@anthropic-ai/sdk", async (importOriginal) => {
  loaded.add("@anthropic-ai/sdk");
  return importOriginal();
});

const KEY = "sk-lazy-key-1111222233334444";

describe("provider SDKs are loaded when a model of their type first speaks", () => {
  let fake: FakeOpenAIServer;
  beforeEach(async () => {
    fake = await startFakeOpenAIServer({ apiKey: KEY });
  });
  afterEach(async () => {
    await fake.close();
  });

  const build = (model: ModelConfig, provider: ProviderConfig): LanguageModel =>
    createLanguageModel({ model, provider, env: { KEY }, lens: "security" });

  it("loads none at construction, then only the one whose model is called", async () => {
    const openai = build(
      { id: "gpt-board", provider: "openai", model: "gpt-test" },
      { name: "openai", type: "openai", baseURL: `${fake.url}/v1`, apiKeyEnv: "KEY" },
    );
    build(
      { id: "llama", provider: "local", model: "llama3" },
      { name: "local", type: "ollama", host: "http://127.0.0.1:9" },
    );
    build(
      { id: "claude", provider: "anthropic", model: "claude-test" },
      {
        name: "anthropic",
        type: "anthropic",
        baseURL: "http://127.0.0.1:9",
        apiKeyEnv: "KEY",
        maxOutputTokens: 4096,
        promptCaching: false,
      },
    );
    expect([...loaded]).toEqual([]);
    expect(openai).toMatchObject({ kind: "chat", provider: "openai", modelId: "gpt-board" });

    fake.script("gpt-test", [{ text: "first" }, { text: "second" }]);
    if (openai.kind !== "chat") throw new Error("expected a chat model");
    expect((await openai.chat({ messages: [{ role: "user", content: "hi" }] })).text).toBe("first");
    expect((await openai.chat({ messages: [{ role: "user", content: "hi" }] })).text).toBe(
      "second",
    );
    expect([...loaded]).toEqual(["openai"]);
  });

  it("still reports a missing key when the model is built, before any call", () => {
    expect(() =>
      build(
        { id: "claude", provider: "anthropic", model: "claude-test" },
        {
          name: "anthropic",
          type: "anthropic",
          baseURL: "http://127.0.0.1:9",
          apiKeyEnv: "MISSING_KEY",
          maxOutputTokens: 4096,
          promptCaching: false,
        },
      ),
    ).toThrow("anthropic: the API key variable MISSING_KEY is not set");
  });
});
