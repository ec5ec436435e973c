/**
 * A fake Anthropic Messages API on 127.0.0.1, scripted per model (and lens) like the fake
 * OpenAI and Ollama servers: `POST /v1/messages` (non-streaming) and `GET /v1/models`. It checks
 * what the real API refuses with a 400 `invalid_request_error` (no `anthropic-version`, no
 * `max_tokens`, turns that do not alternate or open with the assistant, a `tool_result` that
 * answers no `tool_use` of the turn before, `tool_use`/`tool_result` blocks in a request that
 * defines no `tools` (a forced final turn must fold them into text), empty text, a thinking budget not under
 * `max_tokens`, a temperature beside thinking, a continued tool-use turn without its thinking
 * block) and answers errors in the API's shape (`{type: "error", error: {type, message}}`,
 * 529 `overloaded_error`). The key is accepted as `x-api-key` or `Authorization: Bearer`.
 *
 *   const fake = await startFakeAnthropicServer({ apiKey: "sk-ant-test" });
 *   fake.script("claude-test", [{ thinking: ["look at a.ts"],
 *                                 toolCalls: [{ name: "read_file", arguments: { path: "a.ts" } }] },
 *                               { text: "VERDICT: …", usage: { inputTokens: 10, outputTokens: 5,
 *                                                             cachedInputTokens: 900 } }]);
 *   // baseURL: fake.url
 *
 * Each request's `messages` as the scripts see them: the system text first (so `lens:` is
 * found), then each turn with its text blocks joined as `content` and its blocks as `blocks`.
 */

import {
  FakeModelServer,
  type FakeModelServerOptions,
  type FakeProtocol,
} from "./model-fake-server.js";
import type { FakeAnswer, FakeMessage, FakeModelRequest } from "./model-script.js";

interface Block {
  type?: unknown;
  text?: unknown;
  id?: unknown;
  tool_use_id?: unknown;
  [key: string]: unknown;
}

interface Turn {
  role?: unknown;
  content?: unknown;
}

const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  402: "billing_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  504: "timeout_error",
  529: "overloaded_error",
};

export function anthropicErrorType(status: number): string {
  return ERROR_TYPES[status] ?? "api_error";
}

function blocksOf(content: unknown): Block[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  return Array.isArray(content) ? (content as Block[]) : [];
}

function textOf(blocks: readonly Block[]): string {
  return blocks
    .filter((block) => block.type === "text" && typeof block.text === "string")
    .map((block) => block.text as string)
    .join("\n");
}

/** The first reason the real API would give a 400 for this body, if any. */
function invalidMessagesBody(body: Record<string, unknown>): string | undefined {
  if (typeof body.model !== "string" || body.model === "") return "model: Field required";
  if (typeof body.max_tokens !== "number") return "max_tokens: Field required";
  const turns = body.messages;
  if (!Array.isArray(turns) || turns.length === 0)
    return "messages: at least one message is required";
  const thinking = body.thinking as { type?: unknown; budget_tokens?: unknown } | undefined;
  const thinkingOn = thinking?.type === "enabled";
  if (thinkingOn) {
    const budget = thinking?.budget_tokens;
    if (typeof budget !== "number" || budget < 1024) {
      return "thinking.enabled.budget_tokens: Input should be greater than or equal to 1024";
    }
    if (budget >= body.max_tokens)
      return "`max_tokens` must be greater than `thinking.budget_tokens`";
    if (body.temperature !== undefined && body.temperature !== 1) {
      return "`temperature` may only be set to 1 when thinking is enabled";
    }
  }
  for (const block of blocksOf(body.system)) {
    if (block.type !== "text" || typeof block.text !== "string" || block.text.trim() === "") {
      return "system: text content blocks must be non-empty";
    }
  }
  const definesTools = Array.isArray(body.tools) && body.tools.length > 0;
  let previousToolUses = new Set<string>();
  for (const [index, turn] of (turns as Turn[]).entries()) {
    if (turn.role !== "user" && turn.role !== "assistant") {
      return `messages.${index}.role: Input should be 'user' or 'assistant'`;
    }
    if (index === 0 && turn.role !== "user")
      return 'messages: first message must use the "user" role';
    if (index > 0 && (turns as Turn[])[index - 1]?.role === turn.role) {
      return 'messages: roles must alternate between "user" and "assistant"';
    }
    const blocks = blocksOf(turn.content);
    if (blocks.length === 0) return `messages.${index}: all messages must have non-empty content`;
    for (const block of blocks) {
      if (!definesTools && (block.type === "tool_use" || block.type === "tool_result")) {
        return "Requests which include `tool_use` or `tool_result` blocks must define tools.";
      }
      if (block.type === "text" && (typeof block.text !== "string" || block.text.trim() === "")) {
        return `messages.${index}: text content blocks must contain non-whitespace text`;
      }
      if (block.type === "tool_result" && !previousToolUses.has(String(block.tool_use_id))) {
        return `messages.${index}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(block.tool_use_id)}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
      }
    }
    const uses = blocks.filter((block) => block.type === "tool_use");
    if (turn.role === "assistant" && thinkingOn && uses.length > 0) {
      const continued = (turns as Turn[])
        .slice(index + 1)
        .filter((later) => later.role === "user")
        .every((later) => blocksOf(later.content).some((block) => block.type === "tool_result"));
      const opensWithThinking =
        blocks[0]?.type === "thinking" || blocks[0]?.type === "redacted_thinking";
      if (continued && !opensWithThinking) {
        return `messages.${index}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${String(blocks[0]?.type)}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block.`;
      }
    }
    previousToolUses = new Set(uses.map((block) => String(block.id)));
  }
  return undefined;
}

const anthropicProtocol: FakeProtocol = {
  route(method, path, scripts) {
    if (method === "POST" && path === "/v1/messages") {
      return "chat";
    }
    if (method === "GET" && path === "/v1/models") {
      const data = scripts.models().map((id) => ({
        type: "model",
        id,
        display_name: id,
        created_at: "2026-01-01T00:00:00Z",
      }));
      return {
        status: 200,
        body: {
          data,
          has_more: false,
          first_id: data[0]?.id ?? null,
          last_id: data.at(-1)?.id ?? null,
        },
      };
    }
    return undefined;
  },

  authorized(headers, apiKey) {
    return headers["x-api-key"] === apiKey || headers.authorization === `Bearer ${apiKey}`;
  },

  invalidRequest(body, headers) {
    if (typeof headers["anthropic-version"] !== "string") {
      return "anthropic-version: header is required";
    }
    return invalidMessagesBody(body);
  },

  parseChat(body) {
    const system = textOf(blocksOf(body.system));
    const turns = Array.isArray(body.messages) ? (body.messages as Turn[]) : [];
    const messages: FakeMessage[] = [
      ...(system === "" ? [] : [{ role: "system", content: system }]),
      ...turns.map((turn) => {
        const blocks = blocksOf(turn.content);
        return { role: String(turn.role), content: textOf(blocks), blocks };
      }),
    ];
    return {
      model: typeof body.model === "string" ? body.model : "",
      messages,
      tools: Array.isArray(body.tools) ? body.tools : [],
    };
  },

  renderAnswer(answer: FakeAnswer, request: FakeModelRequest, sequence: number) {
    const thinking = (answer.thinking ?? []).map((text, index) => ({
      type: "thinking",
      thinking: text,
      signature: `sig_fake_${sequence}_${index}`,
    }));
    const text =
      answer.text === undefined || answer.text === ""
        ? []
        : [{ type: "text", text: answer.text, citations: null }];
    const toolUses = (answer.toolCalls ?? []).map((call, index) => ({
      type: "tool_use",
      id: call.id ?? `toolu_fake_${sequence}_${index}`,
      name: call.name,
      // The API sends an object; a scripted string that is not JSON goes out as that string.
      input: typeof call.arguments === "string" ? parseOrKeep(call.arguments) : call.arguments,
    }));
    const usage = answer.usage ?? { inputTokens: 10 * request.messages.length, outputTokens: 5 };
    return {
      id: `msg_fake_${sequence}`,
      type: "message",
      role: "assistant",
      model: request.model,
      content: [...thinking, ...text, ...toolUses],
      stop_reason: answer.finishReason ?? (toolUses.length > 0 ? "tool_use" : "end_turn"),
      stop_sequence: null,
      usage: {
        input_tokens: usage.inputTokens,
        output_tokens: usage.outputTokens,
        cache_read_input_tokens: usage.cachedInputTokens ?? 0,
        cache_creation_input_tokens: usage.cacheWriteTokens ?? 0,
        service_tier: "standard",
      },
    };
  },

  renderError(status, message) {
    return { type: "error", error: { type: anthropicErrorType(status), message } };
  },

  renderStream(rendered, request) {
    return request.body.stream === true ? messageEvents(rendered as RenderedMessage) : undefined;
  },
};

interface RenderedMessage {
  content: Block[];
  stop_reason: unknown;
  usage: { output_tokens: number; [key: string]: unknown };
  [key: string]: unknown;
}

/** The answer as the Messages API streams it: message_start, each block's start/delta/stop, message_delta, message_stop. */
function messageEvents(message: RenderedMessage): string {
  const events: [string, unknown][] = [
    [
      "message_start",
      { type: "message_start", message: { ...message, content: [], stop_reason: null } },
    ],
  ];
  for (const [index, block] of message.content.entries()) {
    const start: Record<string, unknown> =
      block.type === "text"
        ? { type: "text", text: "" }
        : block.type === "thinking"
          ? { type: "thinking", thinking: "", signature: "" }
          : { type: "tool_use", id: block.id, name: block.name, input: {} };
    events.push([
      "content_block_start",
      { type: "content_block_start", index, content_block: start },
    ]);
    const deltas: unknown[] =
      block.type === "text"
        ? [{ type: "text_delta", text: block.text }]
        : block.type === "thinking"
          ? [
              { type: "thinking_delta", thinking: block.thinking },
              { type: "signature_delta", signature: block.signature },
            ]
          : [{ type: "input_json_delta", partial_json: JSON.stringify(block.input ?? {}) }];
    for (const delta of deltas) {
      events.push(["content_block_delta", { type: "content_block_delta", index, delta }]);
    }
    events.push(["content_block_stop", { type: "content_block_stop", index }]);
  }
  events.push([
    "message_delta",
    {
      type: "message_delta",
      delta: { stop_reason: message.stop_reason, stop_sequence: null },
      usage: { output_tokens: message.usage.output_tokens },
    },
  ]);
  events.push(["message_stop", { type: "message_stop" }]);
  return events.map(([name, data]) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`).join("");
}

function parseOrKeep(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export type FakeAnthropicServer = FakeModelServer;

export function startFakeAnthropicServer(
  options: FakeModelServerOptions = {},
): Promise<FakeAnthropicServer> {
  return FakeModelServer.start(anthropicProtocol, options);
}
