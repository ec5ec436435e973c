import { describe, expect, it } from "vitest";
import type {
  AgentModel,
  AgentRunRequest,
  ChatModel,
  ChatRequest,
  ChatResult,
} from "../../src/llm/language-model.js";
import { wrapLanguageModel } from "../../src/llm/wrap-language-model.js";

const usage = { inputTokens: 1, outputTokens: 2 };

function chatModel(calls: ChatRequest[]): ChatModel {
  return {
    kind: "chat",
    provider: "openai",
    modelId: "gpt",
    chat: async (request) => {
      calls.push(request);
      return {
        text: `answer ${request.messages.length}`,
        toolCalls: [],
        finishReason: "stop",
        usage,
      };
    },
  };
}

function agentModel(calls: AgentRunRequest[]): AgentModel {
  return {
    kind: "agent",
    provider: "claude",
    modelId: "sonnet",
    run: async (request) => {
      calls.push(request);
      return { text: `ran ${request.prompt}`, transcript: [], usage };
    },
  };
}

describe("wrapLanguageModel", () => {
  it("keeps a chat model's kind, provider and model id, and leaves the wrapped model unchanged", () => {
    const model = chatModel([]);
    const originalChat = model.chat;
    const wrapped = wrapLanguageModel(model, { chat: (request, next) => next(request) });
    expect(wrapped).not.toBe(model);
    expect(wrapped).toMatchObject({ kind: "chat", provider: "openai", modelId: "gpt" });
    expect(model.chat).toBe(originalChat);
  });

  it("keeps an agent model's kind, provider and model id", () => {
    const wrapped = wrapLanguageModel(agentModel([]), { run: (request, next) => next(request) });
    expect(wrapped).toMatchObject({ kind: "agent", provider: "claude", modelId: "sonnet" });
  });

  it("runs the chat hook around each chat turn, which may change the request and the answer", async () => {
    const calls: ChatRequest[] = [];
    const wrapped = wrapLanguageModel(chatModel(calls), {
      chat: async (request, next) => {
        const result = await next({
          ...request,
          messages: [...request.messages, { role: "user", content: "added" }],
        });
        return { ...result, text: `${result.text}!` };
      },
      run: () => {
        throw new Error("the run hook is not for chat models");
      },
    });
    if (wrapped.kind !== "chat") throw new Error("expected a chat model");
    const result = await wrapped.chat({ messages: [{ role: "user", content: "hi" }] });
    expect(result.text).toBe("answer 2!");
    expect(calls.map((call) => call.messages.length)).toEqual([2]);
  });

  it("runs the run hook around each agent run", async () => {
    const calls: AgentRunRequest[] = [];
    const seen: string[] = [];
    const wrapped = wrapLanguageModel(agentModel(calls), {
      chat: () => {
        throw new Error("the chat hook is not for agent models");
      },
      run: async (request, next) => {
        seen.push(`before ${request.prompt}`);
        const result = await next(request);
        seen.push(`after ${result.text}`);
        return result;
      },
    });
    if (wrapped.kind !== "agent") throw new Error("expected an agent model");
    const result = await wrapped.run({ prompt: "task", cwd: "/tmp" });
    expect(result.text).toBe("ran task");
    expect(seen).toEqual(["before task", "after ran task"]);
    expect(calls).toHaveLength(1);
  });

  it("passes calls straight through when the kind's hook is left out", async () => {
    const chatCalls: ChatRequest[] = [];
    const chat = wrapLanguageModel(chatModel(chatCalls), {});
    const request: ChatRequest = { messages: [{ role: "user", content: "hi" }] };
    const chatResult: ChatResult = await (chat as ChatModel).chat(request);
    expect(chatResult.text).toBe("answer 1");
    expect(chatCalls).toEqual([request]);

    const runCalls: AgentRunRequest[] = [];
    const agent = wrapLanguageModel(agentModel(runCalls), { chat: (r, next) => next(r) });
    const runRequest = { prompt: "p", cwd: "/tmp" };
    await (agent as AgentModel).run(runRequest);
    expect(runCalls).toEqual([runRequest]);
  });

  it("stacks: the outer hook sees the inner hook's answer", async () => {
    const order: string[] = [];
    const inner = wrapLanguageModel(chatModel([]), {
      chat: async (request, next) => {
        order.push("inner");
        return next(request);
      },
    });
    const outer = wrapLanguageModel(inner, {
      chat: async (request, next) => {
        order.push("outer");
        const result = await next(request);
        return { ...result, text: `outer(${result.text})` };
      },
    });
    const result = await outer.chat({ messages: [] });
    expect(result.text).toBe("outer(answer 0)");
    expect(order).toEqual(["outer", "inner"]);
  });

  it("lets a hook's rejection reach the caller", async () => {
    const wrapped = wrapLanguageModel(agentModel([]), {
      run: async () => {
        throw new Error("slot unavailable");
      },
    });
    await expect(wrapped.run({ prompt: "p", cwd: "/tmp" })).rejects.toThrow("slot unavailable");
  });
});
