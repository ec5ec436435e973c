import type { ToolCall, ToolDefinition } from "../llm/index.js";
import { findFiles } from "./tools/find-files.js";
import { getDiff } from "./tools/get-diff.js";
import { grep } from "./tools/grep.js";
import { listFiles } from "./tools/list-files.js";
import { readFile } from "./tools/read-file.js";
import type { ChangedFiles, RepoTool } from "./tools/repo-tool.js";
import { ToolError } from "./tools/repo-tool.js";
import { DEFAULT_TOOL_LIMITS, type ToolLimits } from "./tools/tool-limits.js";
import type { Workspace } from "./workspace.js";

export interface ToolExecution {
  /** What the model reads as the tool's answer. */
  content: string;
  isError: boolean;
  /** One line for the status board: the tool's name is separate. */
  summary: string;
}

export interface RepoTools {
  definitions: ToolDefinition[];
  /** Never throws: every failure becomes an answer the model reads. */
  execute(call: ToolCall, signal?: AbortSignal): Promise<ToolExecution>;
}

const SUMMARY_MAX_CHARS = 80;

/**
 * The read-only tools over one workspace: `read_file`, `grep`, `list_files`, `find_files`, and
 * `get_diff` when the session has a change to show.
 */
export function repoTools(
  workspace: Workspace,
  limits: Partial<ToolLimits> = {},
  changes?: ChangedFiles,
): RepoTools {
  const effectiveLimits: ToolLimits = { ...DEFAULT_TOOL_LIMITS, ...limits };
  const tools: RepoTool[] = [readFile, grep, listFiles, findFiles];
  if (changes !== undefined) tools.push(getDiff);
  const byName = new Map(tools.map((tool) => [tool.definition.name, tool]));

  async function execute(call: ToolCall, signal?: AbortSignal): Promise<ToolExecution> {
    const tool = byName.get(call.name);
    if (tool === undefined) {
      return failure(
        `unknown tool "${clip(call.name)}"; the available tools are ${[...byName.keys()].join(", ")}`,
        "(unknown tool)",
      );
    }
    let rawArguments: unknown;
    try {
      rawArguments = call.arguments.trim() === "" ? {} : JSON.parse(call.arguments);
    } catch (error) {
      return failure(
        `the arguments of ${call.name} are not valid JSON (${(error as Error).message}); send a JSON object`,
        "(malformed arguments)",
      );
    }
    if (typeof rawArguments !== "object" || rawArguments === null || Array.isArray(rawArguments)) {
      return failure(
        `the arguments of ${call.name} must be a JSON object`,
        "(malformed arguments)",
      );
    }
    const summary = clip(tool.summarize(rawArguments));
    try {
      const content = await tool.run(rawArguments, {
        workspace,
        limits: effectiveLimits,
        signal,
        changes,
      });
      return { content, isError: false, summary };
    } catch (error) {
      if (error instanceof ToolError) return failure(error.message, summary);
      // Anything else is our bug or an abort: the model learns nothing useful from its text.
      return failure(`${call.name} failed unexpectedly`, summary);
    }
  }

  return { definitions: tools.map((tool) => tool.definition), execute };
}

function failure(message: string, summary: string): ToolExecution {
  return { content: `error: ${message}`, isError: true, summary };
}

/** Model-chosen text bound for the status board: one line, no control characters, short. */
function clip(text: string): string {
  const oneLine = text
    .replace(/\p{Cc}+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
  return oneLine.length <= SUMMARY_MAX_CHARS
    ? oneLine
    : `${oneLine.slice(0, SUMMARY_MAX_CHARS - 1)}…`;
}
