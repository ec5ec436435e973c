import { mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ModelConfig, ProviderConfig } from "../../src/config/schema.js";
import { createLanguageModel } from "../../src/llm/create-language-model.js";
import { ModelError } from "../../src/llm/errors.js";
import type { ChatModel, ChatResult, LanguageModel } from "../../src/llm/language-model.js";
import type { Message } from "../../src/llm/message.js";
import { type FakeOllamaServer, startFakeOllamaServer } from "../fakes/fake-ollama-server.js";
import { type FakeOpenAIServer, startFakeOpenAIServer } from "../fakes/fake-openai-server.js";

const KEY = "sk-factory-key-5555666677778888";

function chatModel(model: LanguageModel): ChatModel {
  if (model.kind !== "chat") {
    throw new Error("expected a chat model");
  }
  return model;
}

function recordingSleep() {
  const delays: number[] = [];
  return { delays, sleep: async (milliseconds: number) => void delays.push(milliseconds) };
}

const hello: Message[] = [{ role: "user", content: "hi" }];

describe("createLanguageModel with an openai provider", () => {
  let fake: FakeOpenAIServer;
  let provider: ProviderConfig;
  const model: ModelConfig = { id: "gpt-board", provider: "openai", model: "gpt-test" };

  beforeEach(async () => {
    fake = await startFakeOpenAIServer({ apiKey: KEY });
    provider = {
      name: "openai",
      type: "openai",
      baseURL: `${fake.url}/v1`,
      apiKeyEnv: "TEST_OPENAI_KEY",
    };
  });

  afterEach(async () => {
    await fake.close();
  });

  const create = (sleep: (milliseconds: number) => Promise<void>) =>
    chatModel(
      createLanguageModel({
        model,
        provider,
        env: { TEST_OPENAI_KEY: KEY },
        lens: "security",
        retry: { sleep },
      }),
    );

  it("retries a 429 after exactly the Retry-After the server asked for", async () => {
    fake.script("gpt-test", [
      { error: 429, headers: { "retry-after": "2" } },
      { text: "after the wait" },
    ]);
    const { delays, sleep } = recordingSleep();
    const result = await create(sleep).chat({ messages: hello });
    expect(result.text).toBe("after the wait");
    expect(delays).toEqual([2_000]);
    expect(fake.callCount("gpt-test")).toBe(2);
  });

  it("gives up after three 500s with a reason", async () => {
    fake.script("gpt-test", [{ error: 500 }, { error: 500 }, { error: 500 }, { text: "too late" }]);
    const { delays, sleep } = recordingSleep();
    const error = (await create(sleep)
      .chat({ messages: hello })
      .catch((caught: unknown) => caught)) as ModelError;
    expect(error).toBeInstanceOf(ModelError);
    expect(error.message).toBe("openai: HTTP 500: scripted error 500 (gave up after 3 attempts)");
    expect(error.statusCode).toBe(500);
    expect(fake.callCount("gpt-test")).toBe(3);
    expect(delays).toHaveLength(2);
  });

  it("does not retry a 400", async () => {
    fake.script("gpt-test", [
      { error: 400, body: { error: { message: "context too long" } } },
      { text: "never" },
    ]);
    const { delays, sleep } = recordingSleep();
    await expect(create(sleep).chat({ messages: hello })).rejects.toMatchObject({
      message: "openai: HTTP 400: context too long",
      statusCode: 400,
    });
    expect(fake.callCount("gpt-test")).toBe(1);
    expect(delays).toEqual([]);
  });

  it("retries a dropped connection", async () => {
    fake.script("gpt-test", [{ drop: true }, { text: "reconnected" }]);
    const { delays, sleep } = recordingSleep();
    await expect(create(sleep).chat({ messages: hello })).resolves.toMatchObject({
      text: "reconnected",
    });
    expect(delays).toHaveLength(1);
  });

  it("refuses a missing or empty key variable, naming the variable", () => {
    const attempt = (env: Record<string, string | undefined>) => () =>
      createLanguageModel({ model, provider, env, lens: "security" });
    expect(attempt({})).toThrow(
      new ModelError("openai: the API key variable TEST_OPENAI_KEY is not set"),
    );
    expect(attempt({ TEST_OPENAI_KEY: "  " })).toThrow(
      "openai: the API key variable TEST_OPENAI_KEY is empty",
    );
  });

  it("refuses a provider that is not the model's", () => {
    expect(() =>
      createLanguageModel({
        model,
        provider: { ...provider, name: "other" },
        env: { TEST_OPENAI_KEY: KEY },
        lens: "x",
      }),
    ).toThrow(ModelError);
  });
});

describe("createLanguageModel with an ollama provider", () => {
  let fake: FakeOllamaServer;

  beforeEach(async () => {
    fake = await startFakeOllamaServer({ apiKey: KEY });
  });

  afterEach(async () => {
    await fake.close();
  });

  it("reads the key from the named variable and defaults the model name to the id", async () => {
    fake.script("glm-5.2:cloud", [
      { error: 503, headers: { "retry-after": "1" } },
      { text: "cloud answer" },
    ]);
    const { delays, sleep } = recordingSleep();
    const model = chatModel(
      createLanguageModel({
        model: { id: "glm-5.2:cloud", provider: "ollama-cloud" },
        provider: {
          name: "ollama-cloud",
          type: "ollama",
          host: fake.url,
          apiKeyEnv: "OLLAMA_API_KEY",
        },
        env: { OLLAMA_API_KEY: KEY },
        lens: "security",
        retry: { sleep },
      }),
    );
    expect(model.modelId).toBe("glm-5.2:cloud");
    expect(model.provider).toBe("ollama-cloud");
    await expect(model.chat({ messages: hello })).resolves.toMatchObject({ text: "cloud answer" });
    expect(delays).toEqual([1_000]);
    expect(fake.unauthorized).toBe(0);
  });
});

describe("createLanguageModel recording and replay", () => {
  let fake: FakeOpenAIServer;
  let dir: string;

  beforeEach(async () => {
    fake = await startFakeOpenAIServer();
    dir = await realpath(await mkdtemp(join(tmpdir(), "gadfly-record-")));
  });

  afterEach(async () => {
    await fake.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function toolExchange(model: ChatModel): Promise<ChatResult[]> {
    const messages: Message[] = [
      { role: "system", content: "lens: correctness" },
      { role: "user", content: "Review." },
    ];
    const first = await model.chat({ messages });
    messages.push({ role: "assistant", content: first.text, toolCalls: first.toolCalls });
    messages.push({ role: "tool", content: "file text", toolCallId: first.toolCalls[0]?.id ?? "" });
    const second = await model.chat({ messages });
    return [first, second];
  }

  it("replays a recorded exchange identically, without calling the provider", async () => {
    fake.script("gpt-test", [
      {
        toolCalls: [{ name: "read_file", arguments: '{"path":"a.ts"' }],
        usage: { inputTokens: 9, outputTokens: 3 },
      },
      {
        text: "VERDICT: Minor issues",
        finishReason: "length",
        usage: { inputTokens: 30, outputTokens: 7 },
      },
    ]);
    const model: ModelConfig = { id: "gpt/test:1", provider: "live", model: "gpt-test" };
    const recorded = await toolExchange(
      chatModel(
        createLanguageModel({
          model,
          provider: { name: "live", type: "openai", baseURL: `${fake.url}/v1` },
          env: {},
          lens: "correctness",
          record: { dir },
        }),
      ),
    );
    expect(fake.callCount("gpt-test")).toBe(2);

    const file = JSON.parse(await readFile(join(dir, "gpt_test_1", "correctness.json"), "utf8"));
    expect(file).toMatchObject({
      format: "gadfly-recording",
      version: 1,
      modelId: "gpt/test:1",
      lens: "correctness",
      kind: "chat",
    });
    expect(
      file.turns.map((turn: { requestMessageCount: number }) => turn.requestMessageCount),
    ).toEqual([2, 4]);

    const replayed = await toolExchange(
      chatModel(
        createLanguageModel({
          model: { id: "gpt/test:1", provider: "replay" },
          provider: { name: "replay", type: "replay", dir },
          env: {},
          lens: "correctness",
        }),
      ),
    );
    expect(replayed).toEqual(recorded);
    expect(fake.callCount("gpt-test")).toBe(2);
  });

  it("records only the attempt that succeeded", async () => {
    fake.script("gpt-test", [{ error: 503 }, { text: "second attempt" }]);
    const { sleep } = recordingSleep();
    const model = chatModel(
      createLanguageModel({
        model: { id: "gpt-test", provider: "live" },
        provider: { name: "live", type: "openai", baseURL: `${fake.url}/v1` },
        env: {},
        lens: "security",
        record: { dir },
        retry: { sleep },
      }),
    );
    await model.chat({ messages: hello });
    const file = JSON.parse(await readFile(join(dir, "gpt-test", "security.json"), "utf8"));
    expect(file.turns).toHaveLength(1);
    expect(file.turns[0].result.text).toBe("second attempt");
  });

  it("records and replays an agent run", async () => {
    const fakeCli = fileURLToPath(new URL("../fakes/fake-agent-cli.mjs", import.meta.url));
    const live = createLanguageModel({
      model: { id: "claude-code/opus", provider: "claude-code", model: "opus" },
      provider: {
        name: "claude-code",
        type: "command",
        command: [process.execPath, fakeCli, "--mode", "claude-stream", "--model", "{model}"],
        env: [],
        allowForks: false,
        removePaths: [],
        writesWorkspace: false,
      },
      env: { PATH: process.env.PATH },
      lens: "security",
      record: { dir },
    });
    if (live.kind !== "agent") {
      throw new Error("expected an agent model");
    }
    const recorded = await live.run({ prompt: "p", cwd: dir });
    const replay = createLanguageModel({
      model: { id: "claude-code/opus", provider: "replay" },
      provider: { name: "replay", type: "replay", dir },
      env: {},
      lens: "security",
    });
    if (replay.kind !== "agent") {
      throw new Error("expected an agent model");
    }
    await expect(replay.run({ prompt: "p", cwd: dir })).resolves.toEqual(recorded);
  });

  it("fails clearly when there is no recording for the lens", () => {
    expect(() =>
      createLanguageModel({
        model: { id: "gpt-test", provider: "replay" },
        provider: { name: "replay", type: "replay", dir },
        env: {},
        lens: "performance",
      }),
    ).toThrow(`replay: no recording at ${join(dir, "gpt-test", "performance.json")}`);
  });
});
