/**
 * A fake Ollama server on 127.0.0.1, scripted per model (and lens): `POST /api/chat`
 * (non-streaming, or one NDJSON line when streaming is asked for), `GET /api/tags` (the
 * scripted models) and `GET /api/version`. Tool call arguments go out as objects, as
 * Ollama sends them; a scripted string that is not JSON goes out as that string.
 *
 *   const fake = await startFakeOllamaServer({ apiKey: "ollama-key" });   // key optional
 *   fake.script("glm-test", [{ toolCalls: [{ name: "grep", arguments: { pattern: "x" } }] },
 *                            { text: "VERDICT: …" }], { lens: "security" });
 *   // host: fake.url
 */

import { FakeUsageMeter } from "./fake-usage-meter.js";
import {
  FakeModelServer,
  type FakeModelServerOptions,
  type FakeProtocol,
} from "./model-fake-server.js";
import type { FakeAnswer, FakeMessage, FakeModelRequest, FakeToolCall } from "./model-script.js";

/** One server's protocol, with its own usage meter (Ollama reports no cache reads). */
function ollamaProtocol(): FakeProtocol {
  const meter = new FakeUsageMeter();
  return {
    route(method, path, scripts) {
      if (method === "POST" && path === "/api/chat") {
        return "chat";
      }
      if (method === "GET" && path === "/api/tags") {
        return {
          status: 200,
          body: {
            models: scripts.models().map((name) => ({
              name,
              model: name,
              modified_at: "2026-01-01T00:00:00Z",
              size: 0,
              digest: "fake",
              details: {},
            })),
          },
        };
      }
      if (method === "GET" && path === "/api/version") {
        return { status: 200, body: { version: "0.12.0" } };
      }
      return undefined;
    },

    parseChat(body) {
      return {
        model: typeof body.model === "string" ? body.model : "",
        messages: Array.isArray(body.messages) ? (body.messages as FakeMessage[]) : [],
        tools: Array.isArray(body.tools) ? body.tools : [],
      };
    },

    renderAnswer(answer: FakeAnswer, request: FakeModelRequest) {
      const toolCalls = (answer.toolCalls ?? []).map((call) => ({
        ...(call.id === undefined ? {} : { id: call.id }),
        function: { name: call.name, arguments: ollamaArguments(call) },
      }));
      const usage =
        answer.usage ??
        meter.measure(request, (answer.text ?? "") + JSON.stringify(toolCalls), { caching: false });
      return {
        model: request.model,
        created_at: "2026-01-01T00:00:00Z",
        message: {
          role: "assistant",
          content: answer.text ?? "",
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
        done: true,
        done_reason: answer.finishReason ?? "stop",
        total_duration: 0,
        load_duration: 0,
        prompt_eval_count: usage.inputTokens,
        prompt_eval_duration: 0,
        eval_count: usage.outputTokens,
        eval_duration: 0,
      };
    },

    reportedUsage(rendered) {
      const answer = rendered as { prompt_eval_count?: number; eval_count?: number };
      if (answer.prompt_eval_count === undefined) return undefined;
      // Ollama reports no cache reads.
      return {
        inputTokens: answer.prompt_eval_count,
        cachedInputTokens: 0,
        outputTokens: answer.eval_count ?? 0,
      };
    },

    renderError(_status, message) {
      return { error: message };
    },

    answerContentType(request) {
      // Ollama streams unless told otherwise.
      return request.body.stream === false ? "application/json" : "application/x-ndjson";
    },
  };
}

function ollamaArguments(call: FakeToolCall): unknown {
  if (typeof call.arguments !== "string") {
    return call.arguments;
  }
  try {
    return JSON.parse(call.arguments);
  } catch {
    return call.arguments;
  }
}

export type FakeOllamaServer = FakeModelServer;

export function startFakeOllamaServer(
  options: FakeModelServerOptions = {},
): Promise<FakeOllamaServer> {
  return FakeModelServer.start(ollamaProtocol(), options);
}
