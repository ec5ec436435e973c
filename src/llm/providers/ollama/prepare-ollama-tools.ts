import type { Tool } from "ollama";
import type { ToolDefinition } from "../../language-model.js";

/** Our tool definitions as Ollama function tools; none means the field is left out. */
export function prepareOllamaTools(
  tools: readonly ToolDefinition[] | undefined,
): Tool[] | undefined {
  if (tools === undefined || tools.length === 0) {
    return undefined;
  }
  return tools.map((tool) => ({
    type: "function",
    function: {
      name: tool.name,
      description: tool.description,
      // Ollama's type is narrower than JSON Schema; the server accepts any schema object.
      parameters: tool.parameters as NonNullable<Tool["function"]["parameters"]>,
    },
  }));
}
