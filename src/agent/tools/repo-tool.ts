import type { ToolDefinition } from "../../llm/index.js";
import type { Workspace } from "../workspace.js";
import type { ToolLimits } from "./tool-limits.js";

export interface ToolContext {
  workspace: Workspace;
  limits: ToolLimits;
  signal?: AbortSignal | undefined;
}

/** A read-only tool over the workspace. Arguments arrive unchecked, as the model wrote them. */
export interface RepoTool {
  definition: ToolDefinition;
  /** Answers the model; throws a ToolError for anything the model should read and fix. */
  run(rawArguments: unknown, context: ToolContext): Promise<string>;
  /** A short, one-line description of the call for the status board. */
  summarize(rawArguments: unknown): string;
}
