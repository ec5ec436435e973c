/**
 * The OpenAI Responses API (`POST /v1/responses`) as the fake OpenAI server speaks it: what Codex
 * CLI sends (an `input` list of message / function_call / function_call_output items, `stream:
 * true`) and the server-sent events it consumes, shaped by the `openai` package's types. It
 * refuses (400) what the real API refuses in a malformed body, so a client bug shows in a test.
 */
import type {
  ResponseFunctionToolCall,
  ResponseOutputMessage,
} from "openai/resources/responses/responses";
import type { FakeAnswer, FakeMessage, FakeModelRequest } from "./model-script.js";

type OutputItem = ResponseOutputMessage | ResponseFunctionToolCall;
interface Usage {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens?: number;
}

const ITEM_TYPES = new Set([
  "message",
  "function_call",
  "function_call_output",
  "reasoning",
  "custom_tool_call",
  "custom_tool_call_output",
  "local_shell_call",
  "local_shell_call_output",
  "web_search_call",
  "item_reference",
]);
const ROLES = new Set(["user", "assistant", "system", "developer"]);

export const openAIResponsesWire = {
  isRoute(path: string): boolean {
    return path === "/v1/responses" || path === "/responses";
  },

  /** Why the real API would answer 400 to this body; undefined when it would take it. */
  invalidRequest(body: Record<string, unknown>): string | undefined {
    if (typeof body.model !== "string" || body.model === "") {
      return "Missing required parameter: 'model'.";
    }
    if (body.stream !== undefined && typeof body.stream !== "boolean") {
      return "Invalid type for 'stream': expected a boolean.";
    }
    if (typeof body.input === "string") return invalidTools(body.tools);
    if (!Array.isArray(body.input)) {
      return "Invalid type for 'input': expected a string or an array of input items.";
    }
    const calls = new Set<string>();
    for (const [index, raw] of (body.input as unknown[]).entries()) {
      const item = raw as Record<string, unknown> | null;
      if (item === null || typeof item !== "object") {
        return `Invalid type for 'input[${index}]': expected an object.`;
      }
      const type = item.type ?? "message";
      if (typeof type !== "string" || !ITEM_TYPES.has(type)) {
        return `Invalid value: '${String(type)}'. Supported values are not this ('input[${index}].type').`;
      }
      const problem = invalidItem(type, item, index, calls);
      if (problem !== undefined) return problem;
    }
    return invalidTools(body.tools);
  },

  parseChat(body: Record<string, unknown>): {
    model: string;
    messages: FakeMessage[];
    tools: unknown[];
  } {
    const messages: FakeMessage[] = [];
    if (typeof body.instructions === "string") {
      messages.push({ role: "system", content: body.instructions });
    }
    const input =
      typeof body.input === "string"
        ? [{ type: "message", role: "user", content: body.input }]
        : (body.input as Record<string, unknown>[]);
    for (const item of input) {
      const message = asMessage(item);
      if (message !== undefined) messages.push(message);
    }
    return {
      model: String(body.model),
      messages,
      tools: Array.isArray(body.tools) ? body.tools : [],
    };
  },

  renderAnswer(
    answer: FakeAnswer,
    request: FakeModelRequest,
    sequence: number,
    usage: Usage,
  ): Record<string, unknown> {
    const output: OutputItem[] = [];
    for (const [index, call] of (answer.toolCalls ?? []).entries()) {
      output.push({
        type: "function_call",
        id: `fc_fake_${sequence}_${index}`,
        call_id: call.id ?? `call_fake_${sequence}_${index}`,
        name: call.name,
        arguments:
          typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments),
        status: "completed",
      });
    }
    if (answer.text !== undefined || output.length === 0) {
      output.unshift({
        type: "message",
        id: `msg_fake_${sequence}`,
        role: "assistant",
        status: "completed",
        content: [{ type: "output_text", text: answer.text ?? "", annotations: [] }],
      });
    }
    return {
      id: `resp_fake_${sequence}`,
      object: "response",
      created_at: 0,
      status: "completed",
      model: request.model,
      output,
      usage: {
        input_tokens: usage.inputTokens,
        input_tokens_details: { cached_tokens: usage.cachedInputTokens ?? 0 },
        output_tokens: usage.outputTokens,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: usage.inputTokens + usage.outputTokens,
      },
    };
  },

  /** The answer as the event stream a `stream: true` request gets; undefined otherwise. */
  renderStream(rendered: unknown, request: FakeModelRequest): string | undefined {
    if (request.body.stream !== true) return undefined;
    const response = rendered as { output: OutputItem[] } & Record<string, unknown>;
    const events: Record<string, unknown>[] = [
      { type: "response.created", response: { ...response, status: "in_progress", output: [] } },
    ];
    for (const [outputIndex, item] of response.output.entries()) {
      events.push(...itemEvents(item, outputIndex));
    }
    events.push({ type: "response.completed", response });
    return events
      .map(
        (event, sequence) =>
          `event: ${event.type}\ndata: ${JSON.stringify({ ...event, sequence_number: sequence })}\n\n`,
      )
      .join("");
  },

  reportedUsage(rendered: unknown) {
    const usage = (rendered as { usage?: Record<string, unknown> }).usage;
    if (usage === undefined) return undefined;
    const details = usage.input_tokens_details as { cached_tokens?: number } | undefined;
    return {
      inputTokens: Number(usage.input_tokens),
      cachedInputTokens: details?.cached_tokens ?? 0,
      outputTokens: Number(usage.output_tokens),
    };
  },
};

function invalidItem(
  type: string,
  item: Record<string, unknown>,
  index: number,
  calls: Set<string>,
): string | undefined {
  if (type === "message") {
    if (typeof item.role !== "string" || !ROLES.has(item.role)) {
      return `Invalid value: '${String(item.role)}' for 'input[${index}].role'. Supported values are: 'user', 'assistant', 'system' and 'developer'.`;
    }
    if (typeof item.content !== "string" && !Array.isArray(item.content)) {
      return `Missing required parameter: 'input[${index}].content'.`;
    }
  }
  if (type === "function_call") {
    if (typeof item.call_id !== "string" || typeof item.name !== "string") {
      return `Missing required parameter: 'input[${index}].call_id' or 'input[${index}].name'.`;
    }
    if (typeof item.arguments !== "string") {
      return `Invalid type for 'input[${index}].arguments': expected a string.`;
    }
    calls.add(item.call_id);
  }
  if (type === "function_call_output") {
    if (typeof item.call_id !== "string") {
      return `Missing required parameter: 'input[${index}].call_id'.`;
    }
    // Without previous_response_id the call must be in this input (Codex sends store: false).
    if (!calls.has(item.call_id)) {
      return `No tool call found for function call output with call_id ${item.call_id}.`;
    }
    if (typeof item.output !== "string" && !Array.isArray(item.output)) {
      return `Missing required parameter: 'input[${index}].output'.`;
    }
  }
  return undefined;
}

function invalidTools(tools: unknown): string | undefined {
  if (tools === undefined) return undefined;
  if (!Array.isArray(tools)) return "Invalid type for 'tools': expected an array.";
  for (const [index, tool] of tools.entries()) {
    const entry = tool as Record<string, unknown> | null;
    if (entry === null || typeof entry.type !== "string") {
      return `Missing required parameter: 'tools[${index}].type'.`;
    }
    if (entry.type === "function" && typeof entry.name !== "string") {
      return `Missing required parameter: 'tools[${index}].name'.`;
    }
  }
  return undefined;
}

/** One input item in the neutral message shape the scripts read. */
function asMessage(item: Record<string, unknown>): FakeMessage | undefined {
  const type = item.type ?? "message";
  if (type === "message") {
    return { role: String(item.role), content: textOf(item.content) };
  }
  if (type === "function_call") {
    return {
      role: "assistant",
      content: null,
      tool_calls: [
        {
          id: item.call_id,
          type: "function",
          function: { name: item.name, arguments: item.arguments },
        },
      ],
    };
  }
  if (type === "function_call_output") {
    return { role: "tool", tool_call_id: item.call_id, content: textOf(item.output) };
  }
  return undefined;
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) => (typeof part?.text === "string" ? (part.text as string) : ""))
    .join("");
}

function itemEvents(item: OutputItem, outputIndex: number): Record<string, unknown>[] {
  const started = { ...item, status: "in_progress" };
  const events: Record<string, unknown>[] = [];
  if (item.type === "message") {
    events.push({
      type: "response.output_item.added",
      output_index: outputIndex,
      item: { ...started, content: [] },
    });
    for (const [contentIndex, part] of item.content.entries()) {
      const text = part.type === "output_text" ? part.text : "";
      const where = { item_id: item.id, output_index: outputIndex, content_index: contentIndex };
      events.push(
        { type: "response.content_part.added", ...where, part: { ...part, text: "" } },
        { type: "response.output_text.delta", ...where, delta: text, logprobs: [] },
        { type: "response.output_text.done", ...where, text, logprobs: [] },
        { type: "response.content_part.done", ...where, part },
      );
    }
  } else {
    events.push(
      {
        type: "response.output_item.added",
        output_index: outputIndex,
        item: { ...started, arguments: "" },
      },
      {
        type: "response.function_call_arguments.delta",
        item_id: item.id,
        output_index: outputIndex,
        delta: item.arguments,
      },
      {
        type: "response.function_call_arguments.done",
        item_id: item.id,
        output_index: outputIndex,
        name: item.name,
        arguments: item.arguments,
      },
    );
  }
  events.push({ type: "response.output_item.done", output_index: outputIndex, item });
  return events;
}
