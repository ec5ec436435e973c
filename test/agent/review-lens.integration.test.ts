import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reviewLens } from "../../src/agent/review-lens.js";
import { Workspace } from "../../src/agent/workspace.js";
import { ModelConfig, ProviderConfig } from "../../src/config/schema.js";
import { renderLensAnswer } from "../../src/findings/findings-block.js";
import { createLanguageModel } from "../../src/llm/create-language-model.js";
import type { LanguageModel } from "../../src/llm/language-model.js";
import { type FakeOllamaServer, startFakeOllamaServer } from "../fakes/fake-ollama-server.js";
import { type FakeOpenAIServer, startFakeOpenAIServer } from "../fakes/fake-openai-server.js";
import type { FakeMessage } from "../fakes/model-script.js";
import {
  eventTrail,
  lens,
  offByOne,
  promptInput,
  sqlInjection,
} from "./helpers/review-fixtures.js";
import { FIXTURE_REPO } from "./helpers/temporary-workspace.js";

const FAKE_CLI = fileURLToPath(new URL("../fakes/fake-agent-cli.mjs", import.meta.url));
const OPENAI_KEY = "sk-integration-key-1234567890";

/** The real adapter and retry policy, with the retry's sleep recorded instead of slept. */
function realModel(
  provider: unknown,
  model: unknown,
  env: Record<string, string>,
  sleeps: number[],
): LanguageModel {
  return createLanguageModel({
    provider: ProviderConfig.parse(provider),
    model: ModelConfig.parse(model),
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    lens: "correctness",
    retry: {
      random: () => 0,
      sleep: async (milliseconds) => {
        sleeps.push(milliseconds);
      },
    },
  });
}

async function review(model: LanguageModel, verify: boolean) {
  const events: Parameters<NonNullable<Parameters<typeof reviewLens>[0]["onEvent"]>>[0][] = [];
  const workspace = await Workspace.open(FIXTURE_REPO);
  const report = await reviewLens({
    model,
    modelId: model.modelId,
    provider: model.provider,
    lens: await lens("correctness"),
    prompt: promptInput,
    workspace,
    limits: { maxTurns: 8, timeoutSeconds: 60, verify },
    onEvent: (event) => events.push(event),
  });
  return { report, events, workspace };
}

const toolContents = (messages: readonly FakeMessage[]) =>
  messages.filter((message) => message.role === "tool").map((message) => String(message.content));

describe("reviewLens against the fake OpenAI server, through the real adapter", () => {
  let fake: FakeOpenAIServer;
  beforeAll(async () => {
    fake = await startFakeOpenAIServer({ apiKey: OPENAI_KEY });
  });
  afterAll(() => fake.close());

  it("runs a tool session, waits out a 429 as told, and verifies", async () => {
    const reviewText = renderLensAnswer(
      "Significant issues",
      [sqlInjection, offByOne],
      "Two problems in src/db.js.",
    );
    fake.script("gpt-test", [
      { error: 429, headers: { "retry-after": "2" } },
      { toolCalls: [{ name: "grep", arguments: { pattern: "listUsers" } }] },
      {
        toolCalls: [
          { name: "read_file", arguments: { path: "src/db.js", start_line: 12, end_line: 14 } },
        ],
      },
      { text: reviewText },
      { toolCalls: [{ name: "read_file", arguments: '{"path": "src/pool.js"}' }] },
      {
        text: `Verified against the source: only the injection holds.\n\n${renderLensAnswer("Significant issues", [sqlInjection])}`,
      },
    ]);
    const sleeps: number[] = [];
    const model = realModel(
      {
        name: "openai-fake",
        type: "openai",
        baseURL: `${fake.url}/v1`,
        apiKeyEnv: "FAKE_OPENAI_KEY",
      },
      { id: "gpt-test", provider: "openai-fake" },
      { FAKE_OPENAI_KEY: OPENAI_KEY },
      sleeps,
    );
    const { report, events } = await review(model, true);

    expect(report).toMatchObject({
      model: "gpt-test",
      provider: "openai-fake",
      outcome: "done",
      verdict: "Significant issues",
      findings: [sqlInjection],
      dropped: [offByOne],
      turns: 5,
    });
    expect(report.text.startsWith("Verified against the source: only the injection holds.")).toBe(
      true,
    );
    expect(sleeps).toEqual([2_000]);
    expect(fake.requests).toHaveLength(6);
    const [, , second, third, , verifyTools] = fake.requests;
    expect(second?.tools).toHaveLength(4);
    expect(second?.lens).toBe("correctness");
    // The verification is a short session of its own, routed to the same lens: its system
    // text, the context, the request, then its own tool turn (not the review's conversation).
    expect(verifyTools?.lens).toBe("correctness");
    expect(verifyTools?.messages.map((message) => message.role)).toEqual([
      "system",
      "user",
      "user",
      "assistant",
      "tool",
    ]);
    expect(verifyTools?.messages[0]).toEqual(second?.messages[0]);
    expect(toolContents(second?.messages ?? [])[0]).toContain(
      "src/db.js:12:export async function listUsers(page, pageSize) {",
    );
    expect(toolContents(third?.messages ?? []).at(-1)).toContain(
      "13\t  const offset = page * pageSize + 1;",
    );
    expect(toolContents(verifyTools?.messages ?? []).at(-1)).toContain("1\texport class Pool {");
    expect(eventTrail(events)).toEqual([
      "running 1",
      "tool grep /listUsers/",
      "running 2",
      "tool read_file src/db.js:12-14",
      "running 3",
      "verifying 2",
      "running 4",
      "tool read_file src/pool.js",
      "running 5",
      "done Significant issues 1/1",
    ]);
  });

  it("fails with the provider's message, without the key, when it gives up", async () => {
    fake.script("gpt-broken", [{ error: 401 }]);
    const model = realModel(
      {
        name: "openai-fake",
        type: "openai",
        baseURL: `${fake.url}/v1`,
        apiKeyEnv: "FAKE_OPENAI_KEY",
      },
      { id: "gpt-broken", provider: "openai-fake" },
      { FAKE_OPENAI_KEY: "sk-wrong-key-0987654321" },
      [],
    );
    const { report } = await review(model, false);
    expect(report.outcome).toBe("failed");
    expect(report.failure).toMatch(/openai-fake/);
    expect(report.failure).not.toContain("sk-wrong-key-0987654321");
  });
});

describe("reviewLens against the fake Ollama server, through the real adapter", () => {
  let fake: FakeOllamaServer;
  beforeAll(async () => {
    fake = await startFakeOllamaServer();
  });
  afterAll(() => fake.close());

  it("runs a tool session after a 429 and recovers a summary closer", async () => {
    const frontLoaded = renderLensAnswer(
      "Minor issues",
      [offByOne],
      "I read `listUsers` in src/db.js and the `/users` handler in src/server.js. The offset adds one row on every page, so page 0 starts at the second user and the first user is never listed; docs/guide.md says pages start at 0.",
    );
    fake.script("glm-test:cloud", [
      { error: 429, headers: { "retry-after": "1" } },
      { toolCalls: [{ name: "list_files", arguments: { path: "src" } }] },
      { text: frontLoaded, toolCalls: [{ name: "read_file", arguments: { path: "src/db.js" } }] },
      {
        text: "Citations are logged. Short version: the pagination offset in `listUsers` skips a row.",
      },
    ]);
    const sleeps: number[] = [];
    const model = realModel(
      { name: "ollama-fake", type: "ollama", host: fake.url },
      { id: "glm-test:cloud", provider: "ollama-fake" },
      {},
      sleeps,
    );
    const { report } = await review(model, false);
    expect(report).toMatchObject({
      outcome: "done",
      verdict: "Minor issues",
      findings: [offByOne],
      recovered: true,
      turns: 3,
    });
    expect(report.text).toBe(frontLoaded.trim());
    expect(sleeps).toEqual([1_000]);
    expect(toolContents(fake.requests[2]?.messages ?? [])[0]).toBe(
      "src/db.js\nsrc/pool.js\nsrc/server.js",
    );
    expect(toolContents(fake.requests[3]?.messages ?? []).at(-1)).toContain("7\t  const sql =");
  });
});

describe("reviewLens against the fake agent CLI, through the command adapter", () => {
  const cli = (mode: string) =>
    realModel(
      {
        name: "fake-cli",
        type: "command",
        command: [process.execPath, FAKE_CLI, "--mode", mode, "--model", "{model}"],
      },
      { id: "fake-cli/opus", provider: "fake-cli", model: "opus" },
      {},
      [],
    );

  it("recovers the findings turn from a Claude Code transcript ending in a back-reference", async () => {
    const { report } = await review(cli("claude-stream"), false);
    expect(report).toMatchObject({
      model: "fake-cli/opus",
      outcome: "done",
      verdict: "No material issues found",
      statedVerdict: "Minor issues",
      findings: [],
      recovered: true,
      turns: 1,
    });
    expect(report.text).toBe("VERDICT: Minor issues\n```gadfly-findings\n[]\n```");
  });

  it("runs in a copy of the workspace with the whole prompt, and fails after a repair run without a block", async () => {
    const { report, workspace } = await review(cli("plain"), false);
    expect(report).toMatchObject({
      outcome: "failed",
      verdict: null,
      turns: 2,
      failure: "no findings block after a repair turn: no `gadfly-findings` block found",
    });
    expect(report.text).toContain("model=opus");
    // The CLI never runs in the snapshot itself: in a scrubbed copy (src/sandbox).
    expect(report.text).not.toContain(`cwd=${workspace.root}\n`);
    expect(report.text).toMatch(/cwd=\S+\/gadfly-agent-[^/\s]+\/workspace\n/);
    expect(report.text).toContain("## Your lens: 🎯 Correctness (lens: correctness)");
    expect(report.text).toContain("## Your previous answer");
  });
});
