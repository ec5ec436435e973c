/**
 * A fake OpenAI server on 127.0.0.1, scripted per model (and lens):
 * `POST /v1/chat/completions` (also `/chat/completions`, for a baseURL without /v1),
 * `POST /v1/responses` (the Responses API as Codex CLI uses it, streamed when asked:
 * openai-responses-wire.ts) and `GET /v1/models`. Chat completions are non-streaming only,
 * which is all Gadfly asks for. The same script answers on either route.
 *
 *   const fake = await startFakeOpenAIServer({ apiKey: "sk-test" });
 *   fake.script("gpt-test", [{ toolCalls: [{ name: "read_file", arguments: { path: "a.ts" } }] },
 *                            { text: "VERDICT: …" }]);
 *   // baseURL: `${fake.url}/v1`
 */

import { FakeUsageMeter } from "./fake-usage-meter.js";
import {
  FakeModelServer,
  type FakeModelServerOptions,
  type FakeProtocol,
} from "./model-fake-server.js";
import type { FakeAnswer, FakeMessage, FakeModelRequest } from "./model-script.js";
import { openAIResponsesWire } from "./openai-responses-wire.js";

/** One server's protocol: its usage meter remembers the prompts it saw, for prefix caching. */
function openAIProtocol(): FakeProtocol {
  const meter = new FakeUsageMeter();
  return {
    route(method, path, scripts) {
      const chatRoute = path === "/v1/chat/completions" || path === "/chat/completions";
      if (method === "POST" && (chatRoute || openAIResponsesWire.isRoute(path))) {
        return "chat";
      }
      if (method === "GET" && (path === "/v1/models" || path === "/models")) {
        return {
          status: 200,
          body: {
            object: "list",
            data: scripts
              .models()
              .map((id) => ({ id, object: "model", created: 0, owned_by: "fake" })),
          },
        };
      }
      return undefined;
    },

    invalidRequest(body, _headers, path) {
      return openAIResponsesWire.isRoute(path)
        ? openAIResponsesWire.invalidRequest(body)
        : undefined;
    },

    parseChat(body, path) {
      if (openAIResponsesWire.isRoute(path)) return openAIResponsesWire.parseChat(body);
      return {
        model: typeof body.model === "string" ? body.model : "",
        messages: Array.isArray(body.messages) ? (body.messages as FakeMessage[]) : [],
        tools: Array.isArray(body.tools) ? body.tools : [],
      };
    },

    renderAnswer(answer: FakeAnswer, request: FakeModelRequest, sequence: number) {
      const toolCalls = (answer.toolCalls ?? []).map((call, index) => ({
        id: call.id ?? `call_fake_${sequence}_${index}`,
        type: "function",
        function: {
          name: call.name,
          arguments:
            typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments),
        },
      }));
      const measured = meter.measure(request, (answer.text ?? "") + JSON.stringify(toolCalls), {
        caching: true,
      });
      const usage = answer.usage ?? measured;
      const cached = answer.usage === undefined ? measured.cachedInputTokens : undefined;
      if (openAIResponsesWire.isRoute(request.path)) {
        return openAIResponsesWire.renderAnswer(answer, request, sequence, {
          ...usage,
          cachedInputTokens: cached ?? usage.cachedInputTokens ?? 0,
        });
      }
      return {
        id: `chatcmpl-fake-${sequence}`,
        object: "chat.completion",
        created: 0,
        model: request.model,
        choices: [
          {
            index: 0,
            message: {
              role: "assistant",
              content: answer.text ?? (toolCalls.length > 0 ? null : ""),
              refusal: null,
              ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
            },
            finish_reason: answer.finishReason ?? (toolCalls.length > 0 ? "tool_calls" : "stop"),
            logprobs: null,
          },
        ],
        usage: {
          prompt_tokens: usage.inputTokens,
          completion_tokens: usage.outputTokens,
          total_tokens: usage.inputTokens + usage.outputTokens,
          ...(cached === undefined ? {} : { prompt_tokens_details: { cached_tokens: cached } }),
        },
      };
    },

    renderStream(rendered, request) {
      return openAIResponsesWire.isRoute(request.path)
        ? openAIResponsesWire.renderStream(rendered, request)
        : undefined;
    },

    reportedUsage(rendered) {
      if ((rendered as { object?: unknown }).object === "response") {
        return openAIResponsesWire.reportedUsage(rendered);
      }
      const usage = (rendered as { usage?: Record<string, unknown> }).usage;
      if (usage === undefined) return undefined;
      const details = usage.prompt_tokens_details as { cached_tokens?: number } | undefined;
      return {
        inputTokens: Number(usage.prompt_tokens),
        cachedInputTokens: details?.cached_tokens ?? 0,
        outputTokens: Number(usage.completion_tokens),
      };
    },

    renderError(status, message) {
      return {
        error: { message, type: status === 429 ? "rate_limit_exceeded" : "fake_error", code: null },
      };
    },
  };
}

export type FakeOpenAIServer = FakeModelServer;

export function startFakeOpenAIServer(
  options: FakeModelServerOptions = {},
): Promise<FakeOpenAIServer> {
  return FakeModelServer.start(openAIProtocol(), options);
}
