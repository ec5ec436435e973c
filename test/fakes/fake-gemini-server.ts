/**
 * A fake Gemini API (generativelanguage.googleapis.com) on 127.0.0.1, scripted per model (and
 * lens), as Gemini CLI calls it: `POST /v1beta/models/<model>:streamGenerateContent?alt=sse`
 * (server-sent events, one `data:` chunk per answer), `:generateContent`, `:countTokens` and
 * `GET /v1beta/models`; the key in `x-goog-api-key`. It refuses (400 INVALID_ARGUMENT) a
 * malformed body the way the real API does, so a client bug shows in a test.
 *
 *   const fake = await startFakeGeminiServer({ apiKey: "gk-test" });
 *   fake.script("gemini-2.5-pro", [{ text: "VERDICT: …" }]);
 *   // GOOGLE_GEMINI_BASE_URL: fake.url
 */
import { FakeUsageMeter } from "./fake-usage-meter.js";
import {
  FakeModelServer,
  type FakeModelServerOptions,
  type FakeProtocol,
} from "./model-fake-server.js";
import type { FakeAnswer, FakeMessage, FakeModelRequest } from "./model-script.js";

const METHOD =
  /^\/v1(?:beta)?\/models\/([^/:]+):(streamGenerateContent|generateContent|countTokens)$/;
const ROLES = new Set(["user", "model", "function"]);
const PART_FIELDS = [
  "text",
  "inlineData",
  "functionCall",
  "functionResponse",
  "fileData",
  "executableCode",
  "codeExecutionResult",
];

interface Part {
  text?: string;
  thought?: boolean;
  functionCall?: { name?: string; args?: unknown; id?: string };
  functionResponse?: { name?: string; response?: unknown; id?: string };
}

function geminiProtocol(): FakeProtocol {
  const meter = new FakeUsageMeter();
  return {
    route(method, path, scripts) {
      const call = METHOD.exec(path);
      if (method === "POST" && call !== null) {
        return call[2] === "countTokens" ? { status: 200, body: { totalTokens: 0 } } : "chat";
      }
      if (method === "GET" && (path === "/v1beta/models" || path === "/v1/models")) {
        return {
          status: 200,
          body: { models: scripts.models().map((id) => ({ name: `models/${id}` })) },
        };
      }
      return undefined;
    },

    authorized(headers, apiKey) {
      return headers["x-goog-api-key"] === apiKey;
    },

    invalidRequest(body) {
      if (!Array.isArray(body.contents) || body.contents.length === 0) {
        return "* GenerateContentRequest.contents: contents is not specified";
      }
      for (const [index, raw] of (body.contents as unknown[]).entries()) {
        const content = raw as { role?: unknown; parts?: unknown } | null;
        if (content === null || typeof content !== "object") {
          return `Invalid value at 'contents[${index}]': expected a Content object`;
        }
        if (content.role !== undefined && !ROLES.has(String(content.role))) {
          return `Please use a valid role: user, model. ('contents[${index}].role': ${String(content.role)})`;
        }
        if (!Array.isArray(content.parts) || content.parts.length === 0) {
          return `* GenerateContentRequest.contents[${index}].parts: contents.parts must not be empty.`;
        }
        for (const [at, part] of (content.parts as unknown[]).entries()) {
          const fields = PART_FIELDS.filter(
            (field) => (part as Record<string, unknown>)?.[field] !== undefined,
          );
          if (fields.length !== 1) {
            return `* GenerateContentRequest.contents[${index}].parts[${at}].data: required oneof field 'data' must have one initialized field`;
          }
        }
      }
      return undefined;
    },

    parseChat(body, path) {
      const messages: FakeMessage[] = [];
      const system = body.systemInstruction as { parts?: Part[] } | undefined;
      if (system?.parts !== undefined) {
        messages.push({ role: "system", content: textOf(system.parts) });
      }
      for (const content of body.contents as { role?: string; parts: Part[] }[]) {
        messages.push(...asMessages(content));
      }
      return {
        model: METHOD.exec(path)?.[1] ?? "",
        messages,
        tools: Array.isArray(body.tools) ? body.tools : [],
      };
    },

    renderAnswer(answer: FakeAnswer, request: FakeModelRequest, sequence: number) {
      const parts: Record<string, unknown>[] = [];
      if (answer.text !== undefined) parts.push({ text: answer.text });
      for (const [index, call] of (answer.toolCalls ?? []).entries()) {
        const args =
          typeof call.arguments === "string" ? JSON.parse(call.arguments) : call.arguments;
        parts.push({
          functionCall: { id: call.id ?? `call_fake_${sequence}_${index}`, name: call.name, args },
        });
      }
      if (parts.length === 0) parts.push({ text: "" });
      const measured = meter.measure(request, JSON.stringify(parts), { caching: true });
      const usage = answer.usage ?? measured;
      return {
        candidates: [
          {
            content: { role: "model", parts },
            finishReason: answer.finishReason ?? "STOP",
            index: 0,
          },
        ],
        usageMetadata: {
          promptTokenCount: usage.inputTokens,
          candidatesTokenCount: usage.outputTokens,
          totalTokenCount: usage.inputTokens + usage.outputTokens,
          cachedContentTokenCount: usage.cachedInputTokens ?? 0,
        },
        modelVersion: request.model,
        responseId: `fake-${sequence}`,
      };
    },

    renderStream(rendered, request) {
      return request.path.endsWith(":streamGenerateContent")
        ? `data: ${JSON.stringify(rendered)}\r\n\r\n`
        : undefined;
    },

    reportedUsage(rendered) {
      const usage = (rendered as { usageMetadata?: Record<string, number> }).usageMetadata;
      if (usage === undefined) return undefined;
      return {
        inputTokens: Number(usage.promptTokenCount),
        cachedInputTokens: usage.cachedContentTokenCount ?? 0,
        outputTokens: Number(usage.candidatesTokenCount),
      };
    },

    renderError(status, message) {
      const names: Record<number, string> = {
        400: "INVALID_ARGUMENT",
        401: "UNAUTHENTICATED",
        404: "NOT_FOUND",
        429: "RESOURCE_EXHAUSTED",
      };
      return { error: { code: status, message, status: names[status] ?? "INTERNAL" } };
    },
  };
}

/** One Content in the neutral shape the scripts read: text, function calls, function responses. */
function asMessages(content: { role?: string; parts: Part[] }): FakeMessage[] {
  const responses = content.parts.filter((part) => part.functionResponse !== undefined);
  if (responses.length > 0) {
    return responses.map((part) => ({
      role: "tool",
      tool_call_id: part.functionResponse?.id,
      name: part.functionResponse?.name,
      content: JSON.stringify(part.functionResponse?.response ?? null),
    }));
  }
  const calls = content.parts.filter((part) => part.functionCall !== undefined);
  return [
    {
      role: content.role === "model" ? "assistant" : "user",
      content: textOf(content.parts),
      ...(calls.length > 0
        ? {
            tool_calls: calls.map((part) => ({
              id: part.functionCall?.id,
              type: "function",
              function: {
                name: part.functionCall?.name,
                arguments: JSON.stringify(part.functionCall?.args ?? {}),
              },
            })),
          }
        : {}),
    },
  ];
}

function textOf(parts: Part[]): string {
  return parts
    .filter((part) => part.thought !== true)
    .map((part) => part.text ?? "")
    .join("");
}

export type FakeGeminiServer = FakeModelServer;

export function startFakeGeminiServer(
  options: FakeModelServerOptions = {},
): Promise<FakeGeminiServer> {
  return FakeModelServer.start(geminiProtocol(), options);
}
