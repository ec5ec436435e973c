import OpenAI from "openai";
import type { ChatCompletion } from "openai/resources/chat/completions";
import type { OpenAIProviderConfig } from "../../../config/index.js";
import { InvalidModelResponseError } from "../../errors.js";
import type { ChatModel, ChatRequest, ChatResult } from "../../language-model.js";
import type { ToolCall } from "../../message.js";
import { fallbackToolCallId } from "../fallback-tool-call-id.js";
import { convertToOpenAIMessages } from "./convert-to-openai-messages.js";
import { mapOpenAIFinishReason } from "./map-openai-finish-reason.js";
import { parseOpenAIError } from "./parse-openai-error.js";
import { prepareOpenAITools } from "./prepare-openai-tools.js";

export interface OpenAIChatModelOptions {
  provider: Pick<OpenAIProviderConfig, "name" | "baseURL" | "timeoutSeconds">;
  /** What the board shows. */
  modelId: string;
  /** The model name sent to the API. */
  model: string;
  /** Already read from the environment; undefined for servers that need none. */
  apiKey: string | undefined;
  now?: () => number;
  /** The process's shared fetch (keep-alive sockets); the global fetch by default. */
  fetch?: typeof fetch | undefined;
}

/** A chat model on any OpenAI-compatible chat-completions API (non-streaming, function tools). */
export function createOpenAIChatModel(options: OpenAIChatModelOptions): ChatModel {
  const { provider, apiKey } = options;
  const now = options.now ?? Date.now;
  const client = new OpenAI({
    // The client insists on a key; a keyless local server ignores this placeholder.
    apiKey: apiKey ?? "unused",
    baseURL: provider.baseURL,
    // Our retry policy governs; the client's own would multiply attempts and hide Retry-After.
    maxRetries: 0,
    // Everything explicit, so nothing is picked up from OPENAI_* variables behind our back.
    organization: null,
    project: null,
    adminAPIKey: null,
    webhookSecret: null,
    logLevel: "off",
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    ...(provider.timeoutSeconds === undefined ? {} : { timeout: provider.timeoutSeconds * 1000 }),
    ...(apiKey === undefined ? { defaultHeaders: { Authorization: null } } : {}),
  });

  async function chat(request: ChatRequest): Promise<ChatResult> {
    const tools = prepareOpenAITools(request.tools);
    let completion: ChatCompletion;
    try {
      completion = await client.chat.completions.create(
        {
          model: options.model,
          messages: convertToOpenAIMessages(request.messages),
          ...(tools === undefined ? {} : { tools }),
          ...(request.maxOutputTokens === undefined
            ? {}
            : { max_completion_tokens: request.maxOutputTokens }),
          ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
        },
        request.signal === undefined ? {} : { signal: request.signal },
      );
    } catch (error) {
      throw parseOpenAIError(error, {
        provider: provider.name,
        secrets: [apiKey],
        now: now(),
        signal: request.signal,
      });
    }
    return toChatResult(completion, request, provider.name);
  }

  return { kind: "chat", provider: provider.name, modelId: options.modelId, chat };
}

function toChatResult(
  completion: ChatCompletion,
  request: ChatRequest,
  provider: string,
): ChatResult {
  const choice = completion.choices?.[0];
  if (choice === undefined) {
    throw new InvalidModelResponseError(`${provider}: the answer has no choices`);
  }
  const toolCalls: ToolCall[] = [];
  for (const call of choice.message.tool_calls ?? []) {
    if (call.type !== "function") {
      continue;
    }
    toolCalls.push({
      id: call.id || fallbackToolCallId(request.messages, toolCalls.length),
      name: call.function.name,
      // Kept raw, even when malformed: the tool loop decides what to tell the model.
      arguments: call.function.arguments ?? "",
    });
  }
  return {
    text: choice.message.content ?? "",
    toolCalls,
    finishReason: mapOpenAIFinishReason(choice.finish_reason, toolCalls.length > 0),
    usage: {
      inputTokens: completion.usage?.prompt_tokens ?? 0,
      outputTokens: completion.usage?.completion_tokens ?? 0,
      // Automatic prompt caching: the part of the prompt read from the cache, billed lower.
      ...(completion.usage?.prompt_tokens_details?.cached_tokens === undefined
        ? {}
        : { cachedInputTokens: completion.usage.prompt_tokens_details.cached_tokens }),
    },
  };
}
