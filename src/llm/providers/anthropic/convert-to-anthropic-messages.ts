import type {
  ContentBlockParam,
  MessageParam,
  TextBlockParam,
} from "@anthropic-ai/sdk/resources/messages/messages";
import { InvalidModelResponseError } from "../../errors.js";
import type { Message } from "../../message.js";

/** The blocks of an assistant turn that the text leaves out, passed back unchanged. */
export type ThinkingBlockParam = Extract<
  ContentBlockParam,
  { type: "thinking" } | { type: "redacted_thinking" }
>;

export interface AnthropicPrompt {
  system: TextBlockParam[];
  messages: MessageParam[];
}

export interface ConvertOptions {
  /** Marks the end of the stable prefix (the system prompt, the first user message) for caching. */
  cache: boolean;
  /**
   * The thinking blocks that came with a tool-use turn, by its first tool call's id: the API
   * wants them back, unchanged, when that turn is continued with the tools' results.
   */
  thinkingFor?: (toolCallId: string) => readonly ThinkingBlockParam[] | undefined;
  /**
   * The request defines no tools (a forced final turn): the API refuses `tool_use` and
   * `tool_result` blocks without tool definitions, so the exchange is sent as plain text.
   */
  foldTools?: boolean;
}

/**
 * Our messages as a Messages API request: system messages become the top-level `system`
 * blocks; tool results become `tool_result` blocks of a user turn, and turns of the same role
 * in a row are merged (the API wants user and assistant to alternate). An empty assistant text
 * is sent as a placeholder, since the API refuses empty text blocks. With `foldTools`, tool
 * calls and their results become text blocks instead (the thinking of those turns is dropped:
 * the API wants it back only beside a `tool_use` it continues).
 */
export function convertToAnthropicMessages(
  messages: readonly Message[],
  options: ConvertOptions,
): AnthropicPrompt {
  const system: TextBlockParam[] = [];
  const turns: MessageParam[] = [];
  let firstUser: TextBlockParam | undefined;
  const append = (role: "user" | "assistant", blocks: ContentBlockParam[]) => {
    const last = turns.at(-1);
    if (last !== undefined && last.role === role && Array.isArray(last.content)) {
      last.content.push(...blocks);
    } else {
      turns.push({ role, content: blocks });
    }
  };
  for (const [index, message] of messages.entries()) {
    switch (message.role) {
      case "system":
        system.push({ type: "text", text: message.content });
        break;
      case "user": {
        const block: TextBlockParam = { type: "text", text: nonEmpty(message.content) };
        firstUser ??= block;
        append("user", [block]);
        break;
      }
      case "assistant":
        append(
          "assistant",
          options.foldTools === true
            ? foldedAssistantBlocks(message, index)
            : assistantBlocks(message, index, options),
        );
        break;
      default:
        if (message.toolCallId === undefined) {
          throw new InvalidModelResponseError(
            `message ${index} is a tool result without a toolCallId`,
          );
        }
        append("user", [
          options.foldTools === true
            ? { type: "text", text: foldedToolResult(message.toolCallId, message.content) }
            : { type: "tool_result", tool_use_id: message.toolCallId, content: message.content },
        ]);
    }
  }
  if (options.cache) {
    // Two cache breakpoints: the last system block (tools and system open the cached prefix)
    // and the first user message, which carries the diff: what every turn of a reviewer resends.
    const lastSystem = system.at(-1);
    if (lastSystem !== undefined) lastSystem.cache_control = { type: "ephemeral" };
    if (firstUser !== undefined) firstUser.cache_control = { type: "ephemeral" };
  }
  return { system, messages: turns };
}

function assistantBlocks(
  message: Message,
  index: number,
  options: ConvertOptions,
): ContentBlockParam[] {
  const calls = message.toolCalls ?? [];
  const first = calls[0];
  const thinking = first === undefined ? [] : [...(options.thinkingFor?.(first.id) ?? [])];
  const text: ContentBlockParam[] =
    message.content === "" && calls.length > 0
      ? []
      : [{ type: "text", text: nonEmpty(message.content) }];
  const uses: ContentBlockParam[] = calls.map((call) => ({
    type: "tool_use",
    id: call.id,
    name: call.name,
    input: toolInput(call.arguments, index),
  }));
  return [...thinking, ...text, ...uses];
}

/** An assistant turn's text and tool calls as one text block (the call ids kept for pairing). */
function foldedAssistantBlocks(message: Message, index: number): ContentBlockParam[] {
  const calls = (message.toolCalls ?? []).map((call) => {
    const input = JSON.stringify(toolInput(call.arguments, index));
    return `[tool call ${call.id}: ${call.name} ${input}]`;
  });
  const text = [message.content.trim() === "" ? "" : message.content, ...calls]
    .filter((part) => part !== "")
    .join("\n");
  return [{ type: "text", text: nonEmpty(text) }];
}

function foldedToolResult(toolCallId: string, content: string): string {
  return `[tool result ${toolCallId}]\n${nonEmpty(content)}`;
}

/** A tool call's arguments as the object the API sent them as (we keep them as JSON text). */
function toolInput(argumentsText: string, index: number): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(argumentsText === "" ? "{}" : argumentsText);
  } catch {
    parsed = undefined;
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new InvalidModelResponseError(
      `message ${index} has a tool call whose arguments are not a JSON object`,
    );
  }
  return parsed as Record<string, unknown>;
}

function nonEmpty(text: string): string {
  return text.trim() === "" ? "(empty)" : text;
}
