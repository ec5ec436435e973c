import type { Message as OllamaMessage } from "ollama";
import type { Message } from "../../message.js";

/**
 * Our messages as Ollama chat messages. Ollama wants tool arguments as objects and names a
 * tool result by the tool's name, not by a call id, so both are translated here.
 */
export function convertToOllamaMessages(messages: readonly Message[]): OllamaMessage[] {
  const toolNames = new Map<string, string>();
  return messages.map((message): OllamaMessage => {
    switch (message.role) {
      case "system":
      case "user":
        return { role: message.role, content: message.content };
      case "assistant": {
        const toolCalls = message.toolCalls ?? [];
        if (toolCalls.length === 0) {
          return { role: "assistant", content: message.content };
        }
        for (const call of toolCalls) {
          toolNames.set(call.id, call.name);
        }
        return {
          role: "assistant",
          content: message.content,
          tool_calls: toolCalls.map((call) => ({
            function: { name: call.name, arguments: argumentsObject(call.arguments) },
          })),
        };
      }
      // "tool", the last role; a default keeps every path returning.
      default: {
        const toolName =
          message.toolCallId === undefined ? undefined : toolNames.get(message.toolCallId);
        return {
          role: "tool",
          content: message.content,
          ...(toolName === undefined ? {} : { tool_name: toolName }),
        };
      }
    }
  });
}

// A call the model made with malformed arguments still has to be sent back as an object;
// the tool result that follows tells the model what was wrong.
function argumentsObject(raw: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) {
      return parsed as Record<string, unknown>;
    }
  } catch {
    // fall through
  }
  return {};
}
