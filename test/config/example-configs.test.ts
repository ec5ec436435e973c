import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadAppConfig } from "../../src/config/load-app-config.js";
import type { AppConfig, ProviderConfig } from "../../src/config/schema.js";
import { createLanguageModel } from "../../src/llm/create-language-model.js";

const ROOT = join(import.meta.dirname, "../..");
const DIR = join(ROOT, "examples/configs");

/** What each example must configure: the provider as the file's comments promise. */
const EXPECTED: Record<string, { key: string[]; check: (provider: ProviderConfig) => void }> = {
  "openai.yml": {
    key: ["OPENAI_API_KEY"],
    check: (p) => expect(p).toMatchObject({ type: "openai", baseURL: "https://api.openai.com/v1" }),
  },
  "anthropic.yml": {
    key: ["ANTHROPIC_API_KEY"],
    check: (p) =>
      expect(p).toMatchObject({
        type: "anthropic",
        baseURL: "https://api.anthropic.com",
        promptCaching: true,
      }),
  },
  "ollama-local.yml": {
    key: [],
    check: (p) =>
      expect(p).toMatchObject({ type: "ollama", host: "http://127.0.0.1:11434", concurrency: 1 }),
  },
  "ollama-cloud.yml": {
    key: ["OLLAMA_API_KEY"],
    check: (p) => expect(p).toMatchObject({ type: "ollama", host: "https://ollama.com" }),
  },
  "gemini.yml": {
    key: ["GEMINI_API_KEY"],
    check: (p) =>
      expect(p).toMatchObject({
        type: "openai",
        baseURL: "https://generativelanguage.googleapis.com/v1beta/openai",
      }),
  },
  "openrouter.yml": {
    key: ["OPENROUTER_API_KEY"],
    check: (p) =>
      expect(p).toMatchObject({ type: "openai", baseURL: "https://openrouter.ai/api/v1" }),
  },
  "azure-openai.yml": {
    key: ["AZURE_OPENAI_API_KEY"],
    check: (p) =>
      expect(p).toMatchObject({
        type: "openai",
        baseURL: "https://YOUR-RESOURCE.openai.azure.com/openai/v1",
      }),
  },
  "claude-code.yml": {
    key: ["ANTHROPIC_API_KEY"],
    check: (p) => {
      expect(p.type).toBe("command");
      if (p.type !== "command") return;
      expect(p.command[0]).toBe("claude");
      expect(flagValue(p.command, "--setting-sources")).toBe("user");
      expect(p.command).toContain("--strict-mcp-config");
      expect(flagValue(p.command, "--output-format")).toBe("stream-json");
      expect(p.allowForks).toBe(false);
    },
  },
  "codex.yml": {
    // codex exec 0.17x reads CODEX_API_KEY; OPENAI_API_KEY sends no key.
    key: ["CODEX_API_KEY"],
    check: (p) => {
      expect(p.type).toBe("command");
      if (p.type !== "command") return;
      expect(p.command.slice(0, 2)).toEqual(["codex", "exec"]);
      // Codex's own sandbox cannot start inside Gadfly's bubblewrap: its shell would fail.
      expect(flagValue(p.command, "--sandbox")).toBe("danger-full-access");
      expect(p.command).toEqual(
        expect.arrayContaining(["--json", "--skip-git-repo-check", "--ephemeral"]),
      );
      expect(p.command.at(-1)).toBe("-");
      expect(p.allowForks).toBe(false);
    },
  },
  "gemini-cli.yml": {
    key: ["GEMINI_API_KEY"],
    check: (p) => {
      expect(p.type).toBe("command");
      if (p.type !== "command") return;
      expect(p.command[0]).toBe("gemini");
      // Without it Gemini CLI exits 55: not a trusted directory.
      expect(p.command).toContain("--skip-trust");
      expect(p.allowForks).toBe(false);
    },
  },
};

function flagValue(command: readonly string[], flag: string): string | undefined {
  const index = command.indexOf(flag);
  return index === -1 ? undefined : command[index + 1];
}

function keyVariables(provider: ProviderConfig): string[] {
  if (provider.type === "command") return provider.env;
  if ("apiKeyEnv" in provider && provider.apiKeyEnv !== undefined) return [provider.apiKeyEnv];
  return [];
}

async function load(file: string): Promise<AppConfig> {
  return loadAppConfig({ GADFLY_CONFIG: join(DIR, file) }, ROOT);
}

describe("examples/configs", () => {
  it("has exactly the documented examples, each listed in its README and linked from the main README", async () => {
    const files = (await readdir(DIR)).filter((file) => file.endsWith(".yml")).sort();
    expect(files).toEqual(Object.keys(EXPECTED).sort());
    const readme = await readFile(join(DIR, "README.md"), "utf8");
    for (const file of files) expect(readme).toContain(`](${file})`);
    expect(await readFile(join(ROOT, "README.md"), "utf8")).toContain("examples/configs/");
  });

  it.each(Object.keys(EXPECTED))(
    "%s loads with the real loader and configures what it says",
    async (file) => {
      const config = await load(file);
      const expected = EXPECTED[file];
      if (expected === undefined) throw new Error(file);
      expect(config.providers).toHaveLength(1);
      const [provider] = config.providers;
      if (provider === undefined) throw new Error(file);
      expected.check(provider);
      expect(keyVariables(provider)).toEqual(expected.key);
      // No key is ever written in an example, only variable names.
      const text = await readFile(join(DIR, file), "utf8");
      expect(text).not.toMatch(/\b(sk-[A-Za-z0-9]|AIza[0-9A-Za-z_-]{10})/);
      expect(config.models.length).toBeGreaterThan(0);
      // A price the comments show is one the schema reads, not a field it would drop.
      if (text.includes("price:"))
        expect(config.models.some((m) => m.price !== undefined)).toBe(true);
    },
  );

  it.each(
    Object.keys(EXPECTED).filter(
      (file) => !["claude-code.yml", "codex.yml", "gemini-cli.yml"].includes(file),
    ),
  )(
    "%s builds every model with its key variable set, and names the variable when it is not",
    async (file) => {
      const config = await load(file);
      const [provider] = config.providers;
      if (provider === undefined) throw new Error(file);
      const env = Object.fromEntries(
        keyVariables(provider).map((name) => [name, "test-key-value-123"]),
      );
      for (const model of config.models) {
        const built = createLanguageModel({ model, provider, env, lens: "security" });
        expect(built).toMatchObject({ kind: "chat", provider: provider.name, modelId: model.id });
        for (const variable of keyVariables(provider)) {
          expect(() => createLanguageModel({ model, provider, env: {}, lens: "security" })).toThrow(
            `the API key variable ${variable} is not set`,
          );
        }
      }
    },
  );
});
