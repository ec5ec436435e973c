import { type ChatResponse, Ollama } from "ollama";
import type { OllamaProviderConfig } from "../../../config/index.js";
import { InvalidModelResponseError } from "../../errors.js";
import type { ChatModel, ChatRequest, ChatResult } from "../../language-model.js";
import type { ToolCall } from "../../message.js";
import { fallbackToolCallId } from "../fallback-tool-call-id.js";
import { convertToOllamaMessages } from "./convert-to-ollama-messages.js";
import { mapOllamaDoneReason } from "./map-ollama-done-reason.js";
import { parseOllamaError } from "./parse-ollama-error.js";
import { prepareOllamaTools } from "./prepare-ollama-tools.js";

export interface OllamaChatModelOptions {
  provider: Pick<OllamaProviderConfig, "name" | "host" | "timeoutSeconds">;
  /** What the board shows. */
  modelId: string;
  /** The model name sent to the API. */
  model: string;
  /** Ollama's cloud wants a bearer key; a local daemon needs none. */
  apiKey: string | undefined;
  now?: () => number;
  /** The process's shared fetch (keep-alive sockets); the global fetch by default. */
  fetch?: typeof fetch | undefined;
}

/**
 * A chat model on the Ollama API (`/api/chat`, non-streaming, with tools). The `ollama`
 * client cannot cancel a non-streaming request and drops the headers of an error answer,
 * so each call gets its own client whose fetch carries the call's signal and keeps those
 * headers (for Retry-After). Aborting one call therefore never touches another.
 */
export function createOllamaChatModel(options: OllamaChatModelOptions): ChatModel {
  const { provider, apiKey } = options;
  const now = options.now ?? Date.now;
  const baseFetch = options.fetch ?? fetch;
  const headers: Record<string, string> =
    apiKey === undefined ? {} : { Authorization: `Bearer ${apiKey}` };

  async function chat(request: ChatRequest): Promise<ChatResult> {
    const timeoutSignal =
      provider.timeoutSeconds === undefined
        ? undefined
        : AbortSignal.timeout(provider.timeoutSeconds * 1000);
    const signal = combineSignals(request.signal, timeoutSignal);
    let errorHeaders: Headers | undefined;
    const callFetch: typeof fetch = async (input, init) => {
      const requestHeaders = new Headers(init?.headers);
      if (apiKey === undefined) {
        // For ollama.com the client adds process.env.OLLAMA_API_KEY on its own; keys come
        // from the configured variable only.
        requestHeaders.delete("authorization");
      }
      const response = await baseFetch(input, {
        ...init,
        headers: requestHeaders,
        ...(signal === undefined ? {} : { signal }),
      });
      if (response.ok) {
        return response;
      }
      errorHeaders = response.headers;
      return asJsonError(response);
    };
    const client = new Ollama({ host: provider.host, headers, fetch: callFetch });
    const tools = prepareOllamaTools(request.tools);
    const modelOptions = {
      ...(request.maxOutputTokens === undefined ? {} : { num_predict: request.maxOutputTokens }),
      ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    };
    let response: ChatResponse;
    try {
      response = await client.chat({
        model: options.model,
        messages: convertToOllamaMessages(request.messages),
        stream: false,
        ...(tools === undefined ? {} : { tools }),
        ...(Object.keys(modelOptions).length === 0 ? {} : { options: modelOptions }),
      });
    } catch (error) {
      throw parseOllamaError(error, {
        provider: provider.name,
        secrets: [apiKey],
        now: now(),
        signal: request.signal,
        timeoutSignal,
        headers: errorHeaders,
      });
    }
    return toChatResult(response, request, provider.name);
  }

  return { kind: "chat", provider: provider.name, modelId: options.modelId, chat };
}

function toChatResult(response: ChatResponse, request: ChatRequest, provider: string): ChatResult {
  const message = response?.message;
  if (message === undefined || message === null || typeof message !== "object") {
    throw new InvalidModelResponseError(`${provider}: the answer has no message`);
  }
  const toolCalls: ToolCall[] = (message.tool_calls ?? []).map((call, index) => {
    const rawArguments: unknown = call.function.arguments;
    const id: unknown = (call as { id?: unknown }).id;
    return {
      id: typeof id === "string" && id !== "" ? id : fallbackToolCallId(request.messages, index),
      name: call.function.name,
      arguments:
        typeof rawArguments === "string" ? rawArguments : JSON.stringify(rawArguments ?? {}),
    };
  });
  return {
    text: message.content ?? "",
    toolCalls,
    finishReason: mapOllamaDoneReason(response.done_reason, toolCalls.length > 0),
    usage: {
      inputTokens: response.prompt_eval_count ?? 0,
      outputTokens: response.eval_count ?? 0,
    },
  };
}

function combineSignals(...signals: (AbortSignal | undefined)[]): AbortSignal | undefined {
  const present = signals.filter((signal): signal is AbortSignal => signal !== undefined);
  if (present.length <= 1) {
    return present[0];
  }
  return AbortSignal.any(present);
}

// The client logs to the console when an error body is not JSON (a proxy's HTML page) and
// shows "[object Object]" for an OpenAI-shaped one; handing it `{"error": text}` keeps stdout
// clean for the CLI and the provider's explanation for the error message.
async function asJsonError(response: Response): Promise<Response> {
  const text = await response.text().catch(() => "");
  return new Response(JSON.stringify({ error: errorDetail(text) || response.statusText }), {
    status: response.status,
    statusText: response.statusText,
    headers: { "content-type": "application/json" },
  });
}

function errorDetail(body: string): string {
  try {
    const parsed: unknown = JSON.parse(body);
    const error: unknown = (parsed as { error?: unknown } | null)?.error;
    if (typeof error === "string") {
      return error;
    }
    const message: unknown = (error as { message?: unknown } | null)?.message;
    if (typeof message === "string") {
      return message;
    }
  } catch {
    // not JSON: the text itself is the explanation
  }
  return body;
}
