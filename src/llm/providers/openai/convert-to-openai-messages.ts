import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { InvalidModelResponseError } from "../../errors.js";
import type { Message } from "../../message.js";

/** Our messages as chat-completions messages; tool results answer their call by id. */
export function convertToOpenAIMessages(
  messages: readonly Message[],
): ChatCompletionMessageParam[] {
  return messages.map((message, index): ChatCompletionMessageParam => {
    switch (message.role) {
      case "system":
        return { role: "system", content: message.content };
      case "user":
        return { role: "user", content: message.content };
      case "assistant": {
        const toolCalls = message.toolCalls ?? [];
        if (toolCalls.length === 0) {
          return { role: "assistant", content: message.content };
        }
        return {
          role: "assistant",
          // An empty string next to tool calls is rejected by some compatible servers.
          content: message.content === "" ? null : message.content,
          tool_calls: toolCalls.map((call) => ({
            id: call.id,
            type: "function",
            function: { name: call.name, arguments: call.arguments },
          })),
        };
      }
      // "tool", the last role; a default keeps every path returning.
      default:
        if (message.toolCallId === undefined) {
          throw new InvalidModelResponseError(
            `message ${index} is a tool result without a toolCallId`,
          );
        }
        return { role: "tool", tool_call_id: message.toolCallId, content: message.content };
    }
  });
}
