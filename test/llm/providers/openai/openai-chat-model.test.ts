import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ModelAbortedError, ModelError, ModelTimeoutError } from "../../../../src/llm/errors.js";
import type { ChatModel, ToolDefinition } from "../../../../src/llm/language-model.js";
import type { Message } from "../../../../src/llm/message.js";
import { createOpenAIChatModel } from "../../../../src/llm/providers/openai/openai-chat-model.js";
import { type FakeOpenAIServer, startFakeOpenAIServer } from "../../../fakes/fake-openai-server.js";

const API_KEY = "sk-test-0123456789abcdef";

const readFile: ToolDefinition = {
  name: "read_file",
  description: "Read a file of the snapshot",
  parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
};

describe("createOpenAIChatModel against a fake chat-completions server", () => {
  let fake: FakeOpenAIServer;
  let model: ChatModel;

  beforeEach(async () => {
    fake = await startFakeOpenAIServer({ apiKey: API_KEY });
    model = createOpenAIChatModel({
      provider: { name: "openai-test", baseURL: `${fake.url}/v1` },
      modelId: "board-id",
      model: "gpt-test",
      apiKey: API_KEY,
    });
  });

  afterEach(async () => {
    await fake.close();
  });

  it("runs a tool exchange: the model asks for a tool, gets the result, answers", async () => {
    fake.script("gpt-test", [
      {
        toolCalls: [{ id: "call_a", name: "read_file", arguments: { path: "src/a.ts" } }],
        usage: { inputTokens: 120, outputTokens: 12 },
      },
      { text: "VERDICT: No material issues", usage: { inputTokens: 160, outputTokens: 30 } },
    ]);
    const messages: Message[] = [
      { role: "system", content: "You review code. lens: security" },
      { role: "user", content: "Review the change." },
    ];

    const first = await model.chat({ messages, tools: [readFile] });
    expect(first).toEqual({
      text: "",
      toolCalls: [{ id: "call_a", name: "read_file", arguments: '{"path":"src/a.ts"}' }],
      finishReason: "tool-calls",
      usage: { inputTokens: 120, outputTokens: 12 },
    });

    messages.push({ role: "assistant", content: first.text, toolCalls: first.toolCalls });
    messages.push({ role: "tool", toolCallId: "call_a", content: "export const a = 1;" });
    const second = await model.chat({ messages, tools: [readFile] });
    expect(second).toEqual({
      text: "VERDICT: No material issues",
      toolCalls: [],
      finishReason: "stop",
      usage: { inputTokens: 160, outputTokens: 30 },
    });

    expect(fake.requests).toHaveLength(2);
    const [firstRequest, secondRequest] = fake.requests;
    expect(firstRequest?.path).toBe("/v1/chat/completions");
    expect(firstRequest?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(firstRequest?.lens).toBe("security");
    expect(firstRequest?.body.tools).toEqual([
      {
        type: "function",
        function: {
          name: "read_file",
          description: readFile.description,
          parameters: readFile.parameters,
        },
      },
    ]);
    expect(secondRequest?.messages.slice(2)).toEqual([
      {
        role: "assistant",
        content: null,
        tool_calls: [
          {
            id: "call_a",
            type: "function",
            function: { name: "read_file", arguments: '{"path":"src/a.ts"}' },
          },
        ],
      },
      { role: "tool", tool_call_id: "call_a", content: "export const a = 1;" },
    ]);
    expect(fake.callCount("gpt-test")).toBe(2);
  });

  it.each([
    ["stop", "stop"],
    ["length", "length"],
    ["content_filter", "content-filter"],
    ["something_new", "other"],
  ])("maps finish_reason %s to %s", async (reason, expected) => {
    fake.script("gpt-test", [{ text: "partial", finishReason: reason }]);
    const result = await model.chat({ messages: [{ role: "user", content: "hi" }] });
    expect(result.finishReason).toBe(expected);
  });

  it("passes malformed tool arguments through as the raw string", async () => {
    fake.script("gpt-test", [
      { toolCalls: [{ id: "c1", name: "read_file", arguments: '{"path": "a.ts",' }] },
    ]);
    const result = await model.chat({
      messages: [{ role: "user", content: "hi" }],
      tools: [readFile],
    });
    expect(result.toolCalls).toEqual([
      { id: "c1", name: "read_file", arguments: '{"path": "a.ts",' },
    ]);
  });

  it("sends maxOutputTokens and temperature when given", async () => {
    fake.script("gpt-test", [{ text: "ok" }]);
    await model.chat({
      messages: [{ role: "user", content: "hi" }],
      maxOutputTokens: 500,
      temperature: 0.2,
    });
    expect(fake.requests[0]?.body).toMatchObject({ max_completion_tokens: 500, temperature: 0.2 });
    expect(fake.requests[0]?.body.tools).toBeUndefined();
  });

  it("rejects promptly with ModelAbortedError when aborted mid-call, and the server sees the connection close", async () => {
    fake.script("gpt-test", [{ hang: true }]);
    const controller = new AbortController();
    const call = model.chat({
      messages: [{ role: "user", content: "hi" }],
      signal: controller.signal,
    });
    await fake.waitFor(() => fake.inFlight === 1);
    const started = Date.now();
    controller.abort();
    await expect(call).rejects.toBeInstanceOf(ModelAbortedError);
    expect(Date.now() - started).toBeLessThan(1_000);
    await fake.waitFor(() => fake.closedBeforeReply === 1 && fake.inFlight === 0);
  });

  it("reports a timeout signal as ModelTimeoutError", async () => {
    fake.script("gpt-test", [{ hang: true }]);
    const call = model.chat({
      messages: [{ role: "user", content: "hi" }],
      signal: AbortSignal.timeout(50),
    });
    await expect(call).rejects.toBeInstanceOf(ModelTimeoutError);
    await fake.waitFor(() => fake.closedBeforeReply === 1);
  });

  it("maps an HTTP error to a ModelError with status, retryability and Retry-After", async () => {
    fake.script("gpt-test", [{ error: 429, headers: { "retry-after": "7" } }]);
    const error = await model
      .chat({ messages: [{ role: "user", content: "hi" }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ statusCode: 429, isRetryable: true, retryAfterMs: 7_000 });
    expect((error as ModelError).message).toBe("openai-test: HTTP 429: scripted error 429");
  });

  it("never repeats the key, even when the server echoes it in its error body", async () => {
    fake.script("gpt-test", [
      {
        error: 401,
        body: {
          error: {
            message: `Incorrect API key provided: ${API_KEY}. Header was Authorization: Bearer ${API_KEY}`,
            type: "invalid_request_error",
          },
        },
      },
    ]);
    const error = (await model
      .chat({ messages: [{ role: "user", content: "hi" }] })
      .catch((caught: unknown) => caught)) as ModelError;
    expect(error).toBeInstanceOf(ModelError);
    expect(error.statusCode).toBe(401);
    expect(error.isRetryable).toBe(false);
    expect(error.message).toContain("Incorrect API key provided: [redacted]");
    for (const text of [
      error.message,
      error.publicMessage,
      String(error.stack),
      JSON.stringify(error),
    ]) {
      expect(text).not.toContain(API_KEY);
      expect(text).not.toContain("0123456789abcdef");
    }
  });

  it("reports a refused connection as a retryable network error", async () => {
    await fake.close();
    const error = (await model
      .chat({ messages: [{ role: "user", content: "hi" }] })
      .catch((caught: unknown) => caught)) as ModelError;
    expect(error).toBeInstanceOf(ModelError);
    expect(error.isRetryable).toBe(true);
    expect(error.message).toMatch(/^openai-test: network error \(ECONNREFUSED\)$/);
    fake = await startFakeOpenAIServer();
  });
});

describe("createOpenAIChatModel configuration", () => {
  it("works with a baseURL without /v1 and sends no Authorization header when no key is configured", async () => {
    const fake = await startFakeOpenAIServer();
    try {
      fake.script("local-model", [{ text: "hello" }]);
      const model = createOpenAIChatModel({
        provider: { name: "local", baseURL: fake.url },
        modelId: "local-model",
        model: "local-model",
        apiKey: undefined,
      });
      const result = await model.chat({ messages: [{ role: "user", content: "hi" }] });
      expect(result.text).toBe("hello");
      expect(fake.requests[0]?.path).toBe("/chat/completions");
      expect(fake.requests[0]?.headers.authorization).toBeUndefined();
    } finally {
      await fake.close();
    }
  });

  it("makes one attempt per call: the client's own retries are off", async () => {
    const fake = await startFakeOpenAIServer();
    try {
      fake.script("gpt-test", [{ error: 500 }, { text: "second" }]);
      const model = createOpenAIChatModel({
        provider: { name: "openai", baseURL: `${fake.url}/v1` },
        modelId: "gpt-test",
        model: "gpt-test",
        apiKey: "sk-whatever-123456",
      });
      await expect(
        model.chat({ messages: [{ role: "user", content: "hi" }] }),
      ).rejects.toMatchObject({
        statusCode: 500,
        isRetryable: true,
      });
      expect(fake.callCount("gpt-test")).toBe(1);
    } finally {
      await fake.close();
    }
  });

  it("gives up on a request slower than the provider's timeoutSeconds with a retryable error", async () => {
    const fake = await startFakeOpenAIServer();
    try {
      fake.script("gpt-test", [{ hang: true }]);
      const model = createOpenAIChatModel({
        provider: { name: "openai", baseURL: `${fake.url}/v1`, timeoutSeconds: 0.1 },
        modelId: "gpt-test",
        model: "gpt-test",
        apiKey: "sk-whatever-123456",
      });
      await expect(
        model.chat({ messages: [{ role: "user", content: "hi" }] }),
      ).rejects.toMatchObject({
        message: "openai: request timed out",
        isRetryable: true,
      });
    } finally {
      await fake.close();
    }
  });
});
