import type { RepoTools, ToolExecution } from "../../../src/agent/repo-tools.js";

let nextId = 0;

/** Runs one tool call the way the loop does: arguments as the JSON text a model writes. */
export function callTool(
  tools: RepoTools,
  name: string,
  argumentsValue: Record<string, unknown> | string,
): Promise<ToolExecution> {
  nextId += 1;
  const text = typeof argumentsValue === "string" ? argumentsValue : JSON.stringify(argumentsValue);
  return tools.execute({ id: `call-${nextId}`, name, arguments: text });
}
