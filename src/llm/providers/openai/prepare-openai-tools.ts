import type { ChatCompletionFunctionTool } from "openai/resources/chat/completions";
import type { ToolDefinition } from "../../language-model.js";

/** Our tool definitions as chat-completions function tools; none means the field is left out. */
export function prepareOpenAITools(
  tools: readonly ToolDefinition[] | undefined,
): ChatCompletionFunctionTool[] | undefined {
  if (tools === undefined || tools.length === 0) {
    return undefined;
  }
  return tools.map((tool) => ({
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}
