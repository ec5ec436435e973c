import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JsonReport } from "../../src/cli/schema.js";
import { createGitRepository, type GitRepository } from "../cli/git-repository.js";
import {
  type FakeAnthropicServer,
  startFakeAnthropicServer,
} from "../fakes/fake-anthropic-server.js";
import { type FakeOllamaServer, startFakeOllamaServer } from "../fakes/fake-ollama-server.js";
import { type FakeOpenAIServer, startFakeOpenAIServer } from "../fakes/fake-openai-server.js";
import type { FakeReply, FakeScript } from "../fakes/model-script.js";
import { createSandbox, type Sandbox } from "./create-sandbox.js";
import { runGadfly } from "./run-gadfly.js";

const ANTHROPIC_KEY = "sk-ant-e2e-key-77aa31";
const FILE = "src/add.ts";
const LENSES = ["security", "correctness", "maintainability", "performance"];
/** Long enough that lenses sent together overlap at the server. */
const DELAY_MS = 150;

/** Reads the file, then answers clean: two slow calls per lens. */
const reviewer: FakeScript = (request): FakeReply => {
  const toolResultSeen = request.messages.some(
    (message) =>
      message.role === "tool" ||
      (Array.isArray(message.blocks) &&
        message.blocks.some((block: { type?: string }) => block.type === "tool_result")),
  );
  if (!toolResultSeen) {
    return { toolCalls: [{ name: "read_file", arguments: { path: FILE } }], delayMs: DELAY_MS };
  }
  return {
    text: "I read the file.\n\nVERDICT: No material issues found\n```gadfly-findings\n[]\n```",
    delayMs: DELAY_MS,
  };
};

let sandbox: Sandbox;
let repository: GitRepository;
let ollama: FakeOllamaServer;
let openai: FakeOpenAIServer;
let anthropic: FakeAnthropicServer;
let configPath: string;

beforeAll(async () => {
  sandbox = await createSandbox();
  repository = await createGitRepository();
  await repository.write(FILE, "export const add = (a: number, b: number) => a + b;\n");
  repository.commit("add");
  await repository.write(FILE, "export const add = (a: number, b: number) => a + b + 0;\n");
  repository.commit("add, changed");
  ollama = await startFakeOllamaServer();
  openai = await startFakeOpenAIServer();
  anthropic = await startFakeAnthropicServer({ apiKey: ANTHROPIC_KEY });
  ollama.script("qwen-local", reviewer);
  openai.script("gpt-cloud", reviewer);
  anthropic.script("claude-cloud", reviewer);
  configPath = join(sandbox.root, "gadfly.config.yml");
  await writeFile(
    configPath,
    `providers:
  - name: local-gpu
    type: ollama
    host: ${ollama.url}
    concurrency: 1
  - name: openai
    type: openai
    baseURL: ${openai.url}/v1
  - name: anthropic
    type: anthropic
    baseURL: ${anthropic.url}
    apiKeyEnv: E2E_ANTHROPIC_KEY
models:
  - { id: "qwen-local", provider: local-gpu }
  - { id: "gpt-cloud", provider: openai }
  - { id: "claude-cloud", provider: anthropic }
review:
  lenses: [${LENSES.join(", ")}]
  concurrency: 12
  verify: false
  timeoutSeconds: 30
`,
  );
});

afterAll(async () => {
  await Promise.all([
    ollama?.close(),
    openai?.close(),
    anthropic?.close(),
    repository?.remove(),
    sandbox?.remove(),
  ]);
});

describe("per-provider concurrency in one gadfly review process", () => {
  it("runs the local provider's calls one at a time while the cloud providers' overlap", async () => {
    const run = await runGadfly(
      [
        "review",
        "--base",
        "main~1",
        "--head",
        "main",
        "--config",
        configPath,
        "--format",
        "json",
        "--no-progress",
      ],
      { cwd: repository.root, env: { ...sandbox.env, E2E_ANTHROPIC_KEY: ANTHROPIC_KEY } },
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as JsonReport;
    expect(report.modelCount).toBe(3);
    const outcomes = report.models.flatMap((model) => model.lenses.map((lens) => lens.outcome));
    expect(outcomes).toEqual(Array(3 * LENSES.length).fill("done"));

    // Every lens of every model was served: two calls each.
    expect(ollama.callCount("qwen-local")).toBe(2 * LENSES.length);
    expect(openai.callCount("gpt-cloud")).toBe(2 * LENSES.length);
    expect(anthropic.callCount("claude-cloud")).toBe(2 * LENSES.length);
    expect(anthropic.rejected).toEqual([]);
    expect(anthropic.unauthorized).toBe(0);

    expect(ollama.maxInFlight).toBe(1);
    expect(openai.maxInFlight).toBeGreaterThan(1);
    expect(anthropic.maxInFlight).toBeGreaterThan(1);
  });
});
