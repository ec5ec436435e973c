import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ModelAbortedError, ModelError, ModelTimeoutError } from "../../../../src/llm/errors.js";
import type { ChatModel, ToolDefinition } from "../../../../src/llm/language-model.js";
import type { Message } from "../../../../src/llm/message.js";
import { createAnthropicChatModel } from "../../../../src/llm/providers/anthropic/anthropic-chat-model.js";
import {
  type FakeAnthropicServer,
  startFakeAnthropicServer,
} from "../../../fakes/fake-anthropic-server.js";

const API_KEY = "sk-ant-test-0123456789abcdef";

const readFile: ToolDefinition = {
  name: "read_file",
  description: "Read a file of the snapshot",
  parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
};

const provider = (url: string, more: Record<string, unknown> = {}) => ({
  name: "claude-test",
  baseURL: url,
  maxOutputTokens: 4096,
  promptCaching: true,
  ...more,
});

describe("createAnthropicChatModel against a fake Messages API", () => {
  let fake: FakeAnthropicServer;
  let model: ChatModel;

  beforeEach(async () => {
    fake = await startFakeAnthropicServer({ apiKey: API_KEY });
    model = createAnthropicChatModel({
      provider: provider(fake.url),
      modelId: "board-id",
      model: "claude-test",
      apiKey: API_KEY,
    });
  });

  afterEach(async () => {
    await fake.close();
  });

  it("runs a tool exchange with tool_use and tool_result blocks, the prefix marked for caching", async () => {
    fake.script("claude-test", [
      {
        text: "Let me read it.",
        toolCalls: [{ id: "toolu_a", name: "read_file", arguments: { path: "src/a.ts" } }],
        usage: { inputTokens: 20, outputTokens: 12, cacheWriteTokens: 1500 },
      },
      {
        text: "VERDICT: No material issues",
        usage: { inputTokens: 40, outputTokens: 30, cachedInputTokens: 1500 },
      },
    ]);
    const messages: Message[] = [
      { role: "system", content: "You review code. lens: security" },
      { role: "user", content: "Review the change." },
    ];

    const first = await model.chat({ messages, tools: [readFile] });
    expect(first).toEqual({
      text: "Let me read it.",
      toolCalls: [{ id: "toolu_a", name: "read_file", arguments: '{"path":"src/a.ts"}' }],
      finishReason: "tool-calls",
      usage: { inputTokens: 1520, outputTokens: 12, cachedInputTokens: 0, cacheWriteTokens: 1500 },
    });

    messages.push({ role: "assistant", content: first.text, toolCalls: first.toolCalls });
    messages.push({ role: "tool", toolCallId: "toolu_a", content: "export const a = 1;" });
    const second = await model.chat({ messages, tools: [readFile] });
    expect(second).toEqual({
      text: "VERDICT: No material issues",
      toolCalls: [],
      finishReason: "stop",
      usage: { inputTokens: 1540, outputTokens: 30, cachedInputTokens: 1500, cacheWriteTokens: 0 },
    });

    expect(fake.rejected).toEqual([]);
    const [firstRequest, secondRequest] = fake.requests;
    expect(firstRequest?.path).toBe("/v1/messages");
    expect(firstRequest?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(firstRequest?.headers["anthropic-version"]).toBeTypeOf("string");
    expect(firstRequest?.lens).toBe("security");
    expect(firstRequest?.body).toMatchObject({
      model: "claude-test",
      max_tokens: 4096,
      system: [
        {
          type: "text",
          text: "You review code. lens: security",
          cache_control: { type: "ephemeral" },
        },
      ],
      tools: [
        { name: "read_file", description: readFile.description, input_schema: readFile.parameters },
      ],
    });
    expect(firstRequest?.body.thinking).toBeUndefined();
    expect(secondRequest?.body.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "Review the change.", cache_control: { type: "ephemeral" } },
        ],
      },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Let me read it." },
          { type: "tool_use", id: "toolu_a", name: "read_file", input: { path: "src/a.ts" } },
        ],
      },
      {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "toolu_a", content: "export const a = 1;" }],
      },
    ]);
  });

  it("sends no cache_control when prompt caching is off", async () => {
    const uncached = createAnthropicChatModel({
      provider: provider(fake.url, { promptCaching: false }),
      modelId: "m",
      model: "claude-test",
      apiKey: API_KEY,
    });
    fake.script("claude-test", [{ text: "ok" }]);
    await uncached.chat({
      messages: [
        { role: "system", content: "s" },
        { role: "user", content: "u" },
      ],
    });
    expect(JSON.stringify(fake.requests[0]?.body)).not.toContain("cache_control");
  });

  it("with a thinking budget: thinks, keeps the thinking out of the answer, and sends it back with the tool results", async () => {
    const thinker = createAnthropicChatModel({
      provider: provider(fake.url),
      modelId: "m",
      model: "claude-test",
      apiKey: API_KEY,
      thinkingBudgetTokens: 2048,
    });
    fake.script("claude-test", [
      {
        thinking: ["SECRET-PLAN: read a.ts first"],
        toolCalls: [{ id: "toolu_t", name: "read_file", arguments: { path: "a.ts" } }],
      },
      { thinking: ["SECRET-PLAN: it is fine"], text: "VERDICT: fine" },
    ]);
    const messages: Message[] = [{ role: "user", content: "Review." }];
    const first = await thinker.chat({ messages, tools: [readFile], temperature: 0.2 });
    expect(first.text).toBe("");
    messages.push({ role: "assistant", content: first.text, toolCalls: first.toolCalls });
    messages.push({ role: "tool", toolCallId: "toolu_t", content: "const a = 1;" });
    const second = await thinker.chat({ messages, tools: [readFile], temperature: 0.2 });
    expect(second.text).toBe("VERDICT: fine");
    expect(JSON.stringify([first, second])).not.toContain("SECRET-PLAN");

    expect(fake.rejected).toEqual([]);
    expect(fake.requests[0]?.body).toMatchObject({
      max_tokens: 4096 + 2048,
      thinking: { type: "enabled", budget_tokens: 2048 },
    });
    expect(fake.requests[0]?.body.temperature).toBeUndefined();
    const sent = fake.requests[1]?.body.messages as { content: unknown[] }[] | undefined;
    const assistant = sent?.[1];
    expect(assistant?.content[0]).toEqual({
      type: "thinking",
      thinking: "SECRET-PLAN: read a.ts first",
      signature: "sig_fake_1_0",
    });
  });

  it("a conversation continued without its thinking block is refused by the fake, as by the API", async () => {
    // The same conversation through a model that never saw the first turn: no thinking kept.
    const stranger = createAnthropicChatModel({
      provider: provider(fake.url),
      modelId: "m",
      model: "claude-test",
      apiKey: API_KEY,
      thinkingBudgetTokens: 2048,
    });
    fake.script("claude-test", [{ text: "unreachable" }]);
    const error = await stranger
      .chat({
        messages: [
          { role: "user", content: "Review." },
          {
            role: "assistant",
            content: "",
            toolCalls: [{ id: "t1", name: "read_file", arguments: "{}" }],
          },
          { role: "tool", toolCallId: "t1", content: "x" },
        ],
        tools: [readFile],
      })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ statusCode: 400, isRetryable: false });
    expect(String((error as Error).message)).toContain("must start with a thinking block");
  });

  it("a turn without tools after a tool exchange (a forced final turn) folds the exchange into text, which the fake accepts", async () => {
    for (const budget of [undefined, 2048]) {
      const forced = createAnthropicChatModel({
        provider: provider(fake.url),
        modelId: "m",
        model: "claude-test",
        apiKey: API_KEY,
        ...(budget === undefined ? {} : { thinkingBudgetTokens: budget }),
      });
      fake.script("claude-test", [
        {
          thinking: ["plan"],
          toolCalls: [{ id: "toolu_f", name: "read_file", arguments: { path: "a.ts" } }],
        },
        { text: "VERDICT: fine" },
      ]);
      const messages: Message[] = [{ role: "user", content: "Review." }];
      const first = await forced.chat({ messages, tools: [readFile] });
      messages.push({ role: "assistant", content: "Reading.", toolCalls: first.toolCalls });
      messages.push({ role: "tool", toolCallId: "toolu_f", content: "const a = 1;" });
      messages.push({ role: "user", content: "Answer now, without tools." });
      const last = await forced.chat({ messages });
      expect(last.text).toBe("VERDICT: fine");
      expect(fake.rejected).toEqual([]);
      const body = fake.requests.at(-1)?.body;
      expect(body?.tools).toBeUndefined();
      const sent = JSON.stringify(body?.messages);
      expect(sent).not.toMatch(/"type":"(tool_use|tool_result|thinking)"/);
      // The model still sees what it asked for and what it got.
      expect(sent).toContain('[tool call toolu_f: read_file {\\"path\\":\\"a.ts\\"}]');
      expect(sent).toContain("[tool result toolu_f]\\nconst a = 1;");
    }
  });

  it("the fake refuses tool blocks in a request that defines no tools, as the API does", async () => {
    fake.script("claude-test", [{ text: "unreachable" }]);
    const response = await fetch(`${fake.url}/v1/messages`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-api-key": API_KEY,
        "anthropic-version": "2023-06-01",
      },
      body: JSON.stringify({
        model: "claude-test",
        max_tokens: 100,
        messages: [
          { role: "user", content: "Review." },
          {
            role: "assistant",
            content: [{ type: "tool_use", id: "t1", name: "read_file", input: {} }],
          },
          { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "x" }] },
        ],
      }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      type: "error",
      error: {
        type: "invalid_request_error",
        message: expect.stringContaining("must define tools"),
      },
    });
  });

  it("sends temperature and maxOutputTokens without thinking", async () => {
    fake.script("claude-test", [{ text: "ok" }]);
    await model.chat({
      messages: [{ role: "user", content: "hi" }],
      maxOutputTokens: 500,
      temperature: 0.2,
    });
    expect(fake.requests[0]?.body).toMatchObject({ max_tokens: 500, temperature: 0.2 });
    expect(fake.requests[0]?.body.tools).toBeUndefined();
    expect(fake.requests[0]?.body.system).toBeUndefined();
  });

  it.each([
    ["end_turn", "stop"],
    ["max_tokens", "length"],
    ["refusal", "content-filter"],
    ["pause_turn", "other"],
  ])("maps stop_reason %s to %s", async (reason, expected) => {
    fake.script("claude-test", [{ text: "partial", finishReason: reason }]);
    const result = await model.chat({ messages: [{ role: "user", content: "hi" }] });
    expect(result.finishReason).toBe(expected);
  });

  it("maps 529 overloaded_error to a retryable ModelError with retry-after, one attempt per call", async () => {
    fake.script("claude-test", [
      { error: 529, headers: { "retry-after": "4" } },
      { text: "later" },
    ]);
    const error = await model
      .chat({ messages: [{ role: "user", content: "hi" }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({
      statusCode: 529,
      isRetryable: true,
      retryAfterMs: 4_000,
      message: "claude-test: HTTP 529: overloaded_error: scripted error 529",
    });
    expect(fake.callCount("claude-test")).toBe(1);
  });

  it("never repeats the key, even when the server echoes it", async () => {
    fake.script("claude-test", [
      {
        error: 401,
        body: {
          type: "error",
          error: { type: "authentication_error", message: `invalid x-api-key ${API_KEY}` },
        },
      },
    ]);
    const error = (await model
      .chat({ messages: [{ role: "user", content: "hi" }] })
      .catch((caught: unknown) => caught)) as ModelError;
    expect(error).toMatchObject({ statusCode: 401, isRetryable: false });
    expect(error.message).toContain("authentication_error: invalid x-api-key [redacted]");
    for (const text of [
      error.message,
      error.publicMessage,
      String(error.stack),
      JSON.stringify(error),
    ]) {
      expect(text).not.toContain("0123456789abcdef");
    }
  });

  it("fails an answer without content blocks instead of passing it as empty", async () => {
    fake.script("claude-test", () => ({
      error: 200,
      body: { type: "message", role: "assistant", content: null },
    }));
    await expect(model.chat({ messages: [{ role: "user", content: "hi" }] })).rejects.toThrow(
      "claude-test: the answer has no content blocks",
    );
  });

  it("rejects promptly with ModelAbortedError when aborted mid-call", async () => {
    fake.script("claude-test", [{ hang: true }]);
    const controller = new AbortController();
    const call = model.chat({
      messages: [{ role: "user", content: "hi" }],
      signal: controller.signal,
    });
    await fake.waitFor(() => fake.inFlight === 1);
    controller.abort();
    await expect(call).rejects.toBeInstanceOf(ModelAbortedError);
    await fake.waitFor(() => fake.closedBeforeReply === 1 && fake.inFlight === 0);
  });

  it("reports a timeout signal as ModelTimeoutError", async () => {
    fake.script("claude-test", [{ hang: true }]);
    const call = model.chat({
      messages: [{ role: "user", content: "hi" }],
      signal: AbortSignal.timeout(50),
    });
    await expect(call).rejects.toBeInstanceOf(ModelTimeoutError);
  });

  it("reports a refused connection as a retryable network error", async () => {
    await fake.close();
    const error = (await model
      .chat({ messages: [{ role: "user", content: "hi" }] })
      .catch((caught: unknown) => caught)) as ModelError;
    expect(error).toMatchObject({ isRetryable: true });
    expect(error.message).toMatch(/^claude-test: network error \(/);
    fake = await startFakeAnthropicServer();
  });
});

describe("createAnthropicChatModel configuration", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("sends no credential without a key, even with ANTHROPIC_API_KEY in the environment", async () => {
    vi.stubEnv("ANTHROPIC_API_KEY", "sk-ant-from-env-should-not-leak");
    vi.stubEnv("ANTHROPIC_BASE_URL", "http://127.0.0.1:1");
    const fake = await startFakeAnthropicServer();
    try {
      fake.script("gateway-model", [{ text: "hello" }]);
      const model = createAnthropicChatModel({
        provider: provider(fake.url),
        modelId: "gateway-model",
        model: "gateway-model",
        apiKey: undefined,
      });
      const result = await model.chat({ messages: [{ role: "user", content: "hi" }] });
      expect(result.text).toBe("hello");
      expect(fake.requests[0]?.headers.authorization).toBeUndefined();
      expect(fake.requests[0]?.headers["x-api-key"]).toBeUndefined();
    } finally {
      await fake.close();
    }
  });

  it("gives up on a request slower than timeoutSeconds with a retryable error", async () => {
    const fake = await startFakeAnthropicServer();
    try {
      fake.script("claude-test", [{ hang: true }]);
      const model = createAnthropicChatModel({
        provider: provider(fake.url, { timeoutSeconds: 0.1 }),
        modelId: "m",
        model: "claude-test",
        apiKey: "sk-ant-whatever-123456",
      });
      await expect(
        model.chat({ messages: [{ role: "user", content: "hi" }] }),
      ).rejects.toMatchObject({
        message: "claude-test: request timed out",
        isRetryable: true,
      });
    } finally {
      await fake.close();
    }
  });
});
