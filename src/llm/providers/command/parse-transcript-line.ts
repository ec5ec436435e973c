import type { Usage } from "../../language-model.js";
import type { Message, Role, ToolCall } from "../../message.js";

export type TranscriptEvent =
  | {
      kind: "messages";
      messages: Message[];
      /** Lines sharing an id are parts of one message (Claude Code). */
      messageId: string | undefined;
      /** A streaming fragment to append to the previous fragment. */
      delta: boolean;
      usage: Usage | undefined;
    }
  | { kind: "result"; text: string | undefined; usage: Usage | undefined }
  | { kind: "other"; usage: Usage | undefined };

type Json = Record<string, unknown>;

/**
 * One line of an agent's JSON-lines output, in the shapes we know:
 * Claude Code stream-json (`{"type":"assistant"|"user","message":{…}}`, `{"type":"result"}`),
 * Codex `--json` (`item.completed` agent messages, `turn.completed` usage) and generic
 * `{"role":…,"content":…}` lines (OpenAI-style tool calls allowed). Unknown lines carry
 * nothing but possibly usage.
 */
export function parseTranscriptLine(record: Json): TranscriptEvent {
  const usage = parseUsage(record.usage);
  if (record.type === "result") {
    return { kind: "result", text: stringOrUndefined(record.result), usage };
  }
  if ((record.type === "assistant" || record.type === "user") && isObject(record.message)) {
    const message = record.message;
    const role = record.type;
    return messagesEvent(
      contentMessages(role, message.content),
      stringOrUndefined(message.id),
      false,
      usage,
    );
  }
  if (
    record.type === "item.completed" &&
    isObject(record.item) &&
    record.item.type === "agent_message"
  ) {
    const text = stringOrUndefined(record.item.text) ?? "";
    return messagesEvent([{ role: "assistant", content: text }], undefined, false, usage);
  }
  const role = parseRole(record.role);
  if (role !== undefined) {
    const messages = contentMessages(role, record.content);
    const toolCalls = parseGenericToolCalls(record.tool_calls ?? record.toolCalls);
    const toolCallId = stringOrUndefined(record.tool_call_id ?? record.toolCallId);
    const first = messages[0];
    if (first !== undefined && toolCalls.length > 0) {
      first.toolCalls = [...(first.toolCalls ?? []), ...toolCalls];
    }
    if (first !== undefined && toolCallId !== undefined) {
      first.toolCallId = toolCallId;
    }
    return messagesEvent(messages, stringOrUndefined(record.id), record.delta === true, usage);
  }
  return { kind: "other", usage };
}

function messagesEvent(
  messages: Message[],
  messageId: string | undefined,
  delta: boolean,
  usage: Usage | undefined,
): TranscriptEvent {
  return { kind: "messages", messages, messageId, delta, usage };
}

/**
 * A message's content, as a string or as content blocks. Text blocks make one message of
 * the role; tool_use blocks become its tool calls; tool_result blocks become tool messages.
 */
function contentMessages(role: Role, content: unknown): Message[] {
  if (typeof content === "string") {
    return [{ role, content }];
  }
  if (!Array.isArray(content)) {
    return [{ role, content: "" }];
  }
  const texts: string[] = [];
  const toolCalls: ToolCall[] = [];
  const toolResults: Message[] = [];
  for (const block of content) {
    if (typeof block === "string") {
      texts.push(block);
    } else if (!isObject(block)) {
      // ignored
    } else if (block.type === "tool_use") {
      toolCalls.push({
        id: stringOrUndefined(block.id) ?? "",
        name: stringOrUndefined(block.name) ?? "",
        arguments: JSON.stringify(block.input ?? {}),
      });
    } else if (block.type === "tool_result") {
      toolResults.push({
        role: "tool",
        content: blockText(block.content),
        toolCallId: stringOrUndefined(block.tool_use_id) ?? "",
      });
    } else if (typeof block.text === "string") {
      texts.push(block.text);
    }
  }
  const messages: Message[] = [];
  if (texts.length > 0 || toolCalls.length > 0 || toolResults.length === 0) {
    const message: Message = { role, content: texts.join("\n") };
    if (toolCalls.length > 0) {
      message.toolCalls = toolCalls;
    }
    messages.push(message);
  }
  return [...messages, ...toolResults];
}

function blockText(content: unknown): string {
  if (typeof content === "string") {
    return content;
  }
  if (Array.isArray(content)) {
    return content
      .map((part) => (isObject(part) && typeof part.text === "string" ? part.text : ""))
      .filter((text) => text !== "")
      .join("\n");
  }
  return "";
}

function parseGenericToolCalls(value: unknown): ToolCall[] {
  if (!Array.isArray(value)) {
    return [];
  }
  return value.filter(isObject).map((call) => {
    const target = isObject(call.function) ? call.function : call;
    const rawArguments = target.arguments;
    return {
      id: stringOrUndefined(call.id) ?? "",
      name: stringOrUndefined(target.name) ?? "",
      arguments:
        typeof rawArguments === "string" ? rawArguments : JSON.stringify(rawArguments ?? {}),
    };
  });
}

function parseUsage(value: unknown): Usage | undefined {
  if (!isObject(value)) {
    return undefined;
  }
  const input =
    numberOrZero(value.input_tokens ?? value.prompt_tokens ?? value.inputTokens) +
    // Claude Code reports cached input apart; it is input all the same.
    numberOrZero(value.cache_read_input_tokens) +
    numberOrZero(value.cache_creation_input_tokens);
  const output = numberOrZero(value.output_tokens ?? value.completion_tokens ?? value.outputTokens);
  return { inputTokens: input, outputTokens: output };
}

function parseRole(value: unknown): Role | undefined {
  return value === "system" || value === "user" || value === "assistant" || value === "tool"
    ? value
    : undefined;
}

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function numberOrZero(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}
