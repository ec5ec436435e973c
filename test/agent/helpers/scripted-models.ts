import type {
  AgentModel,
  AgentRunRequest,
  AgentRunResult,
  ChatModel,
  ChatRequest,
  ChatResult,
} from "../../../src/llm/language-model.js";
import type { ToolCall } from "../../../src/llm/message.js";

export type ChatStep =
  | Partial<ChatResult>
  | ((request: ChatRequest, index: number) => Partial<ChatResult> | Promise<Partial<ChatResult>>);

export interface ScriptedChatModel extends ChatModel {
  /** Every request, its messages copied at call time. */
  readonly requests: ChatRequest[];
}

const USAGE = { inputTokens: 100, outputTokens: 20 };

/** An in-process chat model that plays a script, one step per call, and records what it was sent. */
export function scriptedChatModel(steps: readonly ChatStep[]): ScriptedChatModel {
  const requests: ChatRequest[] = [];
  return {
    kind: "chat",
    provider: "scripted",
    modelId: "scripted-model",
    requests,
    async chat(request) {
      const index = requests.length;
      requests.push({ ...request, messages: request.messages.map((message) => ({ ...message })) });
      const step = steps[index];
      if (step === undefined) throw new Error(`the script has no step ${index + 1}`);
      const partial = typeof step === "function" ? await step(request, index) : step;
      const toolCalls = partial.toolCalls ?? [];
      return {
        text: partial.text ?? "",
        toolCalls,
        finishReason: partial.finishReason ?? (toolCalls.length > 0 ? "tool-calls" : "stop"),
        usage: partial.usage ?? USAGE,
      };
    },
  };
}

let callNumber = 0;

/** A tool call as a model writes it; `args` may be raw (malformed) JSON text. */
export function call(name: string, args: Record<string, unknown> | string = {}): ToolCall {
  callNumber += 1;
  return {
    id: `call_${callNumber}`,
    name,
    arguments: typeof args === "string" ? args : JSON.stringify(args),
  };
}

/** A turn that calls tools, optionally with text (a front-loaded answer). */
export function toolTurn(text: string, ...toolCalls: ToolCall[]): Partial<ChatResult> {
  return { text, toolCalls };
}

export function answer(text: string): Partial<ChatResult> {
  return { text };
}

export type AgentStep =
  | Partial<AgentRunResult>
  | ((
      request: AgentRunRequest,
      index: number,
    ) => Partial<AgentRunResult> | Promise<Partial<AgentRunResult>>);

export interface ScriptedAgentModel extends AgentModel {
  readonly requests: AgentRunRequest[];
}

/** An in-process agent CLI stand-in: one step per run. */
export function scriptedAgentModel(steps: readonly AgentStep[]): ScriptedAgentModel {
  const requests: AgentRunRequest[] = [];
  return {
    kind: "agent",
    provider: "scripted-cli",
    modelId: "scripted-cli/opus",
    requests,
    async run(request) {
      const index = requests.length;
      requests.push({ ...request });
      const step = steps[index];
      if (step === undefined) throw new Error(`the script has no run ${index + 1}`);
      const partial = typeof step === "function" ? await step(request, index) : step;
      return {
        text: partial.text ?? "",
        transcript: partial.transcript ?? [],
        usage: partial.usage ?? USAGE,
        ...(partial.toolCalls === undefined ? {} : { toolCalls: partial.toolCalls }),
      };
    },
  };
}
