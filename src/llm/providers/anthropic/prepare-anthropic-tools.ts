import type { Tool } from "@anthropic-ai/sdk/resources/messages/messages";
import type { ToolDefinition } from "../../language-model.js";

/** Our tool definitions as Messages API tools; none means the field is left out. */
export function prepareAnthropicTools(
  tools: readonly ToolDefinition[] | undefined,
): Tool[] | undefined {
  if (tools === undefined || tools.length === 0) {
    return undefined;
  }
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: { type: "object", ...tool.parameters },
  }));
}
