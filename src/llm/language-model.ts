import type { SharedScrubbedCopies } from "../sandbox/index.js";
import type { Message, ToolCall } from "./message.js";

/** A tool the model may call, described by a JSON Schema for its arguments. */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** Why the model stopped, mapped from each provider's own vocabulary. */
export type FinishReason = "stop" | "tool-calls" | "length" | "content-filter" | "error" | "other";

export interface Usage {
  /** Every input token of the call, those read from or written to a prompt cache included. */
  inputTokens: number;
  outputTokens: number;
  /** Of `inputTokens`, those read from the provider's prompt cache (when it says). */
  cachedInputTokens?: number;
  /** Of `inputTokens`, those written to the provider's prompt cache (when it says). */
  cacheWriteTokens?: number;
  /**
   * Of `inputTokens`, those estimated from the request's size because the provider reported
   * nothing: a call that failed, timed out or was aborted (meterModelCalls). Absent: none.
   */
  estimatedInputTokens?: number;
}

export interface ChatRequest {
  messages: Message[];
  tools?: ToolDefinition[];
  signal?: AbortSignal;
  maxOutputTokens?: number;
  temperature?: number;
}

export interface ChatResult {
  text: string;
  toolCalls: ToolCall[];
  finishReason: FinishReason;
  usage: Usage;
}

/** A chat model that the tool loop drives turn by turn (openai, ollama, replay). */
export interface ChatModel {
  readonly kind: "chat";
  /** The provider's configured name, shown on the status board. */
  readonly provider: string;
  readonly modelId: string;
  chat(request: ChatRequest): Promise<ChatResult>;
}

export interface AgentRunRequest {
  /** The whole task: system prompt, PR context and output contract, as one text. */
  prompt: string;
  /** The snapshot directory the agent works in. */
  cwd: string;
  /** The round's copies of it: an agent CLI works in the one copy they share, read-only. */
  sharedCopies?: SharedScrubbedCopies | undefined;
  signal?: AbortSignal;
}

export interface AgentRunResult {
  /** The agent's last turn. */
  text: string;
  /** Earlier turns when the agent emitted a transcript; finalize reads them. */
  transcript: Message[];
  usage: Usage;
  /**
   * The tool calls the transcript shows run, and how many of them failed (an error result,
   * a command that failed); absent when the output says nothing about tools.
   */
  toolCalls?: ToolCallTally;
}

/** Tool calls run and failed: a reviewer whose every call failed read nothing but the diff. */
export interface ToolCallTally {
  attempted: number;
  failed: number;
}

/** An agent that runs its own tool loop (an agent CLI such as Claude Code). */
export interface AgentModel {
  readonly kind: "agent";
  readonly provider: string;
  readonly modelId: string;
  run(request: AgentRunRequest): Promise<AgentRunResult>;
}

export type LanguageModel = ChatModel | AgentModel;
