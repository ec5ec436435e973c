import Anthropic from "@anthropic-ai/sdk";
import type {
  Message as AnthropicMessage,
  MessageCreateParamsNonStreaming,
} from "@anthropic-ai/sdk/resources/messages/messages";
import type { AnthropicProviderConfig } from "../../../config/index.js";
import { InvalidModelResponseError } from "../../errors.js";
import type { ChatModel, ChatRequest, ChatResult, Usage } from "../../language-model.js";
import type { ToolCall } from "../../message.js";
import { fallbackToolCallId } from "../fallback-tool-call-id.js";
import {
  convertToAnthropicMessages,
  type ThinkingBlockParam,
} from "./convert-to-anthropic-messages.js";
import { mapAnthropicStopReason } from "./map-anthropic-stop-reason.js";
import { parseAnthropicError } from "./parse-anthropic-error.js";
import { prepareAnthropicTools } from "./prepare-anthropic-tools.js";

export interface AnthropicChatModelOptions {
  provider: Pick<
    AnthropicProviderConfig,
    "name" | "baseURL" | "timeoutSeconds" | "maxOutputTokens" | "promptCaching"
  >;
  /** What the board shows. */
  modelId: string;
  /** The model name sent to the API. */
  model: string;
  /** Already read from the environment; undefined for a gateway that needs none. */
  apiKey: string | undefined;
  /** Extended thinking: the tokens the model may think for before each answer. */
  thinkingBudgetTokens?: number | undefined;
  now?: () => number;
  /** The process's shared fetch (keep-alive sockets); the global fetch by default. */
  fetch?: typeof fetch | undefined;
}

/** Turns whose thinking is kept for continuing them; a review has far fewer tool turns. */
const MAX_REMEMBERED_TURNS = 256;
/** The SDK's non-streaming guard is skipped when a timeout is given; our deadline governs. */
const DEFAULT_TIMEOUT_MS = 15 * 60 * 1000;

/**
 * A chat model on the Anthropic Messages API (`POST /v1/messages`, non-streaming, tool use)
 * through `@anthropic-ai/sdk`. With a thinking budget, the thinking blocks of a tool-use turn
 * are kept here, by the turn's first tool call id, and sent back when that turn is continued
 * (the API requires them); they never become part of the answer's text.
 */
export function createAnthropicChatModel(options: AnthropicChatModelOptions): ChatModel {
  const { provider, apiKey } = options;
  const now = options.now ?? Date.now;
  const client = new KeyOnlyAnthropic({
    // A gateway without a key: no credential at all, rather than one found on disk.
    apiKey: apiKey ?? null,
    authToken: null,
    webhookKey: null,
    baseURL: provider.baseURL,
    // Our retry policy governs; the client's own would multiply attempts and hide retry-after.
    maxRetries: 0,
    logLevel: "off",
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    timeout: (provider.timeoutSeconds ?? DEFAULT_TIMEOUT_MS / 1000) * 1000,
    ...(apiKey === undefined ? { defaultHeaders: { Authorization: null } } : {}),
  });
  const thinking = new Map<string, ThinkingBlockParam[]>();
  const budget = options.thinkingBudgetTokens;

  async function chat(request: ChatRequest): Promise<ChatResult> {
    const tools = prepareAnthropicTools(request.tools);
    const prompt = convertToAnthropicMessages(request.messages, {
      cache: provider.promptCaching,
      thinkingFor: (id) => thinking.get(id),
      foldTools: tools === undefined,
    });
    const maxTokens = request.maxOutputTokens ?? provider.maxOutputTokens;
    const body: MessageCreateParamsNonStreaming = {
      model: options.model,
      messages: prompt.messages,
      max_tokens: maxTokens + (budget ?? 0),
      ...(prompt.system.length === 0 ? {} : { system: prompt.system }),
      ...(tools === undefined ? {} : { tools }),
      // With thinking on, the API accepts no temperature but 1.
      ...(budget === undefined
        ? request.temperature === undefined
          ? {}
          : { temperature: request.temperature }
        : { thinking: { type: "enabled", budget_tokens: budget } }),
    };
    let message: AnthropicMessage;
    try {
      message = await client.messages.create(
        body,
        request.signal === undefined ? {} : { signal: request.signal },
      );
    } catch (error) {
      throw parseAnthropicError(error, {
        provider: provider.name,
        secrets: [apiKey],
        now: now(),
        signal: request.signal,
      });
    }
    const result = toChatResult(message, request, provider.name);
    const first = result.chat.toolCalls[0];
    if (first !== undefined && result.thinking.length > 0) {
      if (thinking.size >= MAX_REMEMBERED_TURNS) {
        const oldest = thinking.keys().next().value;
        if (oldest !== undefined) thinking.delete(oldest);
      }
      thinking.set(first.id, result.thinking);
    }
    return result.chat;
  }

  return { kind: "chat", provider: provider.name, modelId: options.modelId, chat };
}

/** The SDK, minus its search for credentials in config files and workload identity. */
class KeyOnlyAnthropic extends Anthropic {
  protected override _shouldResolveDefaultCredentials(): boolean {
    return false;
  }
}

function toChatResult(
  message: AnthropicMessage,
  request: ChatRequest,
  provider: string,
): { chat: ChatResult; thinking: ThinkingBlockParam[] } {
  if (!Array.isArray(message?.content)) {
    throw new InvalidModelResponseError(`${provider}: the answer has no content blocks`);
  }
  const texts: string[] = [];
  const toolCalls: ToolCall[] = [];
  const thinking: ThinkingBlockParam[] = [];
  for (const block of message.content) {
    switch (block.type) {
      case "text":
        texts.push(block.text);
        break;
      case "tool_use":
        if (typeof block.name !== "string" || block.name === "") {
          throw new InvalidModelResponseError(`${provider}: a tool_use block has no name`);
        }
        toolCalls.push({
          id: block.id || fallbackToolCallId(request.messages, toolCalls.length),
          name: block.name,
          arguments: JSON.stringify(block.input ?? {}),
        });
        break;
      case "thinking":
        thinking.push({ type: "thinking", thinking: block.thinking, signature: block.signature });
        break;
      case "redacted_thinking":
        thinking.push({ type: "redacted_thinking", data: block.data });
        break;
      default:
        // Server tools' blocks: Gadfly offers none, so none are expected or answered.
        break;
    }
  }
  return {
    chat: {
      text: texts.join(""),
      toolCalls,
      finishReason: mapAnthropicStopReason(message.stop_reason, toolCalls.length > 0),
      usage: toUsage(message.usage),
    },
    thinking,
  };
}

/** Input tokens in all (uncached, read from the cache, written to it), and the cache's share. */
function toUsage(usage: AnthropicMessage["usage"] | undefined): Usage {
  const uncached = usage?.input_tokens ?? 0;
  const read = usage?.cache_read_input_tokens ?? 0;
  const written = usage?.cache_creation_input_tokens ?? 0;
  return {
    inputTokens: uncached + read + written,
    outputTokens: usage?.output_tokens ?? 0,
    cachedInputTokens: read,
    cacheWriteTokens: written,
  };
}
