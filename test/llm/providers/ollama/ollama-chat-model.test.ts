import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ModelAbortedError, ModelError } from "../../../../src/llm/errors.js";
import type { ChatModel, ToolDefinition } from "../../../../src/llm/language-model.js";
import type { Message } from "../../../../src/llm/message.js";
import { createOllamaChatModel } from "../../../../src/llm/providers/ollama/ollama-chat-model.js";
import { type FakeOllamaServer, startFakeOllamaServer } from "../../../fakes/fake-ollama-server.js";

const API_KEY = "ollama-cloud-key-9f8e7d6c5b4a";

const grep: ToolDefinition = {
  name: "grep",
  description: "Search the snapshot",
  parameters: {
    type: "object",
    properties: { pattern: { type: "string" } },
    required: ["pattern"],
  },
};

describe("createOllamaChatModel against a fake Ollama server", () => {
  let fake: FakeOllamaServer;
  let model: ChatModel;

  beforeEach(async () => {
    fake = await startFakeOllamaServer({ apiKey: API_KEY });
    model = createOllamaChatModel({
      provider: { name: "ollama-cloud", host: fake.url },
      modelId: "glm-test:cloud",
      model: "glm-test",
      apiKey: API_KEY,
    });
  });

  afterEach(async () => {
    await fake.close();
  });

  it("runs a tool exchange with generated call ids, object arguments and usage", async () => {
    fake.script(
      "glm-test",
      [
        {
          toolCalls: [
            { name: "grep", arguments: { pattern: "eval\\(" } },
            { name: "grep", arguments: { pattern: "exec\\(" } },
          ],
          usage: { inputTokens: 300, outputTokens: 20 },
        },
        { text: "VERDICT: Minor issues", usage: { inputTokens: 420, outputTokens: 64 } },
      ],
      { lens: "correctness" },
    );
    const messages: Message[] = [
      { role: "system", content: "lens: correctness" },
      { role: "user", content: "Review the change." },
    ];

    const first = await model.chat({ messages, tools: [grep] });
    expect(first).toEqual({
      text: "",
      toolCalls: [
        { id: "call_0_0", name: "grep", arguments: '{"pattern":"eval\\\\("}' },
        { id: "call_0_1", name: "grep", arguments: '{"pattern":"exec\\\\("}' },
      ],
      finishReason: "tool-calls",
      usage: { inputTokens: 300, outputTokens: 20 },
    });

    messages.push({ role: "assistant", content: "", toolCalls: first.toolCalls });
    messages.push({ role: "tool", toolCallId: "call_0_0", content: "src/a.ts:3: eval(x)" });
    messages.push({ role: "tool", toolCallId: "call_0_1", content: "(no match)" });
    const second = await model.chat({ messages, tools: [grep] });
    expect(second).toEqual({
      text: "VERDICT: Minor issues",
      toolCalls: [],
      finishReason: "stop",
      usage: { inputTokens: 420, outputTokens: 64 },
    });

    const [firstRequest, secondRequest] = fake.requests;
    expect(firstRequest?.path).toBe("/api/chat");
    expect(firstRequest?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(firstRequest?.body).toMatchObject({ model: "glm-test", stream: false });
    expect(firstRequest?.body.tools).toEqual([
      {
        type: "function",
        function: { name: "grep", description: grep.description, parameters: grep.parameters },
      },
    ]);
    expect(secondRequest?.messages.slice(2)).toEqual([
      {
        role: "assistant",
        content: "",
        tool_calls: [
          { function: { name: "grep", arguments: { pattern: "eval\\(" } } },
          { function: { name: "grep", arguments: { pattern: "exec\\(" } } },
        ],
      },
      { role: "tool", content: "src/a.ts:3: eval(x)", tool_name: "grep" },
      { role: "tool", content: "(no match)", tool_name: "grep" },
    ]);
  });

  it("numbers generated ids by the assistant turns already in the conversation", async () => {
    fake.script("glm-test", [{ toolCalls: [{ name: "grep", arguments: { pattern: "x" } }] }]);
    const result = await model.chat({
      messages: [
        { role: "user", content: "go" },
        { role: "assistant", content: "thinking" },
        { role: "user", content: "go on" },
        { role: "assistant", content: "still thinking" },
        { role: "user", content: "go on" },
      ],
    });
    expect(result.toolCalls[0]?.id).toBe("call_2_0");
  });

  it("keeps the ids Ollama gives", async () => {
    fake.script("glm-test", [
      { toolCalls: [{ id: "abc", name: "grep", arguments: { pattern: "x" } }] },
    ]);
    const result = await model.chat({ messages: [{ role: "user", content: "go" }] });
    expect(result.toolCalls[0]?.id).toBe("abc");
  });

  it("passes arguments that are not a JSON object through as the raw string", async () => {
    fake.script("glm-test", [{ toolCalls: [{ name: "grep", arguments: "{pattern: x" }] }]);
    const result = await model.chat({ messages: [{ role: "user", content: "go" }] });
    expect(result.toolCalls[0]?.arguments).toBe("{pattern: x");
  });

  it.each([
    ["stop", "stop"],
    ["length", "length"],
    ["unload", "other"],
  ])("maps done_reason %s to %s", async (reason, expected) => {
    fake.script("glm-test", [{ text: "t", finishReason: reason }]);
    const result = await model.chat({ messages: [{ role: "user", content: "go" }] });
    expect(result.finishReason).toBe(expected);
  });

  it("sends maxOutputTokens and temperature as options", async () => {
    fake.script("glm-test", [{ text: "ok" }]);
    await model.chat({
      messages: [{ role: "user", content: "go" }],
      maxOutputTokens: 256,
      temperature: 0,
    });
    expect(fake.requests[0]?.body.options).toEqual({ num_predict: 256, temperature: 0 });
  });

  it("aborts one call without touching another in flight", async () => {
    fake.script("glm-test", [{ hang: true }], {
      when: (request) => request.messages[0]?.content === "first",
    });
    fake.script("glm-test", [{ text: "second answer", delayMs: 100 }]);
    const controller = new AbortController();
    const first = model.chat({
      messages: [{ role: "user", content: "first" }],
      signal: controller.signal,
    });
    const second = model.chat({ messages: [{ role: "user", content: "second" }] });
    await fake.waitFor(() => fake.inFlight === 2);
    expect(fake.maxInFlight).toBe(2);
    controller.abort();
    await expect(first).rejects.toBeInstanceOf(ModelAbortedError);
    await fake.waitFor(() => fake.closedBeforeReply === 1);
    await expect(second).resolves.toMatchObject({ text: "second answer" });
  });

  it("maps an HTTP error, keeping Retry-After, which the client itself drops", async () => {
    fake.script("glm-test", [{ error: 503, headers: { "retry-after": "3" } }]);
    const error = await model
      .chat({ messages: [{ role: "user", content: "go" }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({
      message: "ollama-cloud: HTTP 503: scripted error 503",
      statusCode: 503,
      isRetryable: true,
      retryAfterMs: 3_000,
    });
  });

  it("keeps a plain-text error body as the reason", async () => {
    fake.script("glm-test", [{ error: 502, body: "<html>Bad gateway</html>" }]);
    await expect(model.chat({ messages: [{ role: "user", content: "go" }] })).rejects.toMatchObject(
      {
        message: "ollama-cloud: HTTP 502: <html>Bad gateway</html>",
        statusCode: 502,
      },
    );
  });

  it("reports an unknown model as a non-retryable 404", async () => {
    await expect(
      createOllamaChatModel({
        provider: { name: "ollama-cloud", host: fake.url },
        modelId: "missing",
        model: "missing",
        apiKey: API_KEY,
      }).chat({ messages: [{ role: "user", content: "go" }] }),
    ).rejects.toMatchObject({
      statusCode: 404,
      isRetryable: false,
      message: 'ollama-cloud: HTTP 404: model "missing" not found',
    });
  });

  it("never repeats the key, even when the server echoes it", async () => {
    fake.script("glm-test", [{ error: 403, body: { error: `key ${API_KEY} is not allowed` } }]);
    const error = (await model
      .chat({ messages: [{ role: "user", content: "go" }] })
      .catch((caught: unknown) => caught)) as ModelError;
    expect(error.message).toBe("ollama-cloud: HTTP 403: key [redacted] is not allowed");
    expect(`${error.publicMessage} ${String(error.stack)}`).not.toContain(API_KEY);
  });

  it("reports a dropped connection as a retryable network error", async () => {
    fake.script("glm-test", [{ drop: true }]);
    const error = (await model
      .chat({ messages: [{ role: "user", content: "go" }] })
      .catch((caught: unknown) => caught)) as ModelError;
    expect(error).toBeInstanceOf(ModelError);
    expect(error.isRetryable).toBe(true);
    expect(error.message).toMatch(/^ollama-cloud: network error \(/);
  });
});

describe("createOllamaChatModel without a key", () => {
  it("sends no Authorization header to a local daemon", async () => {
    const fake = await startFakeOllamaServer();
    try {
      fake.script("llama-local", [{ text: "hi" }]);
      const model = createOllamaChatModel({
        provider: { name: "ollama", host: fake.url },
        modelId: "llama-local",
        model: "llama-local",
        apiKey: undefined,
      });
      await expect(
        model.chat({ messages: [{ role: "user", content: "go" }] }),
      ).resolves.toMatchObject({ text: "hi" });
      expect(fake.requests[0]?.headers.authorization).toBeUndefined();
    } finally {
      await fake.close();
    }
  });

  it("is turned away by a server that wants a key (the fake checks it)", async () => {
    const fake = await startFakeOllamaServer({ apiKey: "needed-key-123456" });
    try {
      fake.script("m", [{ text: "hi" }]);
      const model = createOllamaChatModel({
        provider: { name: "ollama", host: fake.url },
        modelId: "m",
        model: "m",
        apiKey: undefined,
      });
      await expect(
        model.chat({ messages: [{ role: "user", content: "go" }] }),
      ).rejects.toMatchObject({
        statusCode: 401,
        isRetryable: false,
      });
      expect(fake.unauthorized).toBe(1);
    } finally {
      await fake.close();
    }
  });

  it("does not let the client add OLLAMA_API_KEY from the process environment on its own", async () => {
    const seen: (string | null)[] = [];
    const stubFetch: typeof fetch = async (_input, init) => {
      seen.push(new Headers(init?.headers).get("authorization"));
      return Response.json({
        model: "m",
        message: { role: "assistant", content: "ok" },
        done: true,
      });
    };
    const previous = process.env.OLLAMA_API_KEY;
    process.env.OLLAMA_API_KEY = "ambient-key-not-configured";
    try {
      const model = createOllamaChatModel({
        provider: { name: "ollama", host: "https://ollama.com" },
        modelId: "m",
        model: "m",
        apiKey: undefined,
        fetch: stubFetch,
      });
      await expect(
        model.chat({ messages: [{ role: "user", content: "go" }] }),
      ).resolves.toMatchObject({ text: "ok" });
      expect(seen).toEqual([null]);
    } finally {
      if (previous === undefined) {
        delete process.env.OLLAMA_API_KEY;
      } else {
        process.env.OLLAMA_API_KEY = previous;
      }
    }
  });
});
