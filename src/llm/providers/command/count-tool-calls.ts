import type { ToolCallTally } from "../../language-model.js";

type Json = Record<string, unknown>;

/** Codex `--json` items that are a tool the agent ran. */
const CODEX_TOOL_ITEMS = new Set(["command_execution", "mcp_tool_call"]);

/**
 * The tool calls an agent's JSON-lines transcript shows, and how many failed: Claude Code's
 * `tool_result` blocks (`is_error`), Codex's completed command and MCP items (`status:
 * "failed"`, a non-zero `exit_code`) and generic `tool` lines (`is_error`). Undefined when
 * the transcript shows none: a CLI whose output we cannot read for tools is not judged.
 */
export function countToolCalls(records: readonly Json[]): ToolCallTally | undefined {
  const tally: ToolCallTally = { attempted: 0, failed: 0 };
  const count = (failed: boolean) => {
    tally.attempted++;
    if (failed) tally.failed++;
  };
  for (const record of records) {
    if (record.type === "user" && isObject(record.message)) {
      const content = record.message.content;
      for (const block of Array.isArray(content) ? content : []) {
        if (isObject(block) && block.type === "tool_result") count(block.is_error === true);
      }
    } else if (
      record.type === "item.completed" &&
      isObject(record.item) &&
      CODEX_TOOL_ITEMS.has(String(record.item.type))
    ) {
      const { status, exit_code: exitCode } = record.item;
      count(status === "failed" || (typeof exitCode === "number" && exitCode !== 0));
    } else if (record.role === "tool") {
      count(record.is_error === true || record.isError === true);
    }
  }
  return tally.attempted === 0 ? undefined : tally;
}

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
