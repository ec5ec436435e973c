import { describe, expect, it } from "vitest";
import { parseAgentOutput } from "../../../../src/llm/providers/command/parse-agent-output.js";

const lines = (...records: unknown[]) => records.map((record) => JSON.stringify(record)).join("\n");

describe("parseAgentOutput", () => {
  it("takes plain output as the answer, trimmed", () => {
    expect(parseAgentOutput("\nVERDICT: Clean\n\n")).toEqual({
      text: "VERDICT: Clean",
      transcript: [],
      usage: { inputTokens: 0, outputTokens: 0 },
    });
  });

  it("takes output as plain text when any non-empty line is not a JSON object", () => {
    const stdout = `${lines({ role: "assistant", content: "a" })}\nthen plain words\n`;
    expect(parseAgentOutput(stdout).text).toBe(stdout.trim());
    expect(parseAgentOutput('["an", "array"]').text).toBe('["an", "array"]');
  });

  it("keeps the earlier assistant turns when the result differs from the last turn", () => {
    const result = parseAgentOutput(
      lines(
        {
          type: "assistant",
          message: { id: "m1", content: [{ type: "text", text: "Full review here." }] },
        },
        { type: "result", result: "See above." },
      ),
    );
    expect(result.text).toBe("See above.");
    expect(result.transcript).toEqual([{ role: "assistant", content: "Full review here." }]);
  });

  it("falls back to the last assistant text when the result has none (an error result)", () => {
    const result = parseAgentOutput(
      lines(
        {
          type: "assistant",
          message: { id: "m1", content: [{ type: "text", text: "Partial findings." }] },
        },
        {
          type: "assistant",
          message: { id: "m2", content: [{ type: "tool_use", id: "t", name: "Grep", input: {} }] },
        },
        {
          type: "result",
          subtype: "error_max_turns",
          is_error: true,
          usage: { input_tokens: 5, output_tokens: 1 },
        },
      ),
    );
    expect(result.text).toBe("Partial findings.");
    expect(result.transcript).toHaveLength(2);
    expect(result.usage).toEqual({ inputTokens: 5, outputTokens: 1 });
  });

  it("reads Codex --json agent messages and sums its turn usage", () => {
    const result = parseAgentOutput(
      lines(
        { type: "thread.started", thread_id: "t" },
        { type: "item.completed", item: { id: "i0", type: "reasoning", text: "thinking" } },
        {
          type: "item.completed",
          item: { id: "i1", type: "agent_message", text: "Looking at a.ts" },
        },
        {
          type: "item.completed",
          item: { id: "i2", type: "agent_message", text: "VERDICT: Clean" },
        },
        {
          type: "turn.completed",
          usage: { input_tokens: 40, cached_input_tokens: 0, output_tokens: 9 },
        },
      ),
    );
    expect(result).toEqual({
      text: "VERDICT: Clean",
      transcript: [{ role: "assistant", content: "Looking at a.ts" }],
      usage: { inputTokens: 40, outputTokens: 9 },
    });
  });

  it("counts the tool calls a transcript shows and the failed ones: Codex commands, Claude Code tool results", () => {
    // Codex under a sandbox that breaks its shell: every command fails.
    const bwrapFailure = "bwrap: Creating new namespace failed: No space left on device";
    const codex = parseAgentOutput(
      lines(
        {
          type: "item.completed",
          item: {
            id: "c1",
            type: "command_execution",
            command: "bash -lc 'cat src/a.ts'",
            aggregated_output: bwrapFailure,
            exit_code: 1,
            status: "failed",
          },
        },
        {
          type: "item.completed",
          item: {
            id: "c2",
            type: "command_execution",
            command: "bash -lc ls",
            aggregated_output: bwrapFailure,
            exit_code: 1,
            status: "completed",
          },
        },
        {
          type: "item.completed",
          item: { id: "m", type: "agent_message", text: "VERDICT: Clean" },
        },
      ),
    );
    expect(codex.toolCalls).toEqual({ attempted: 2, failed: 2 });
    const mixed = parseAgentOutput(
      lines(
        {
          type: "item.completed",
          item: { id: "c1", type: "command_execution", exit_code: 0, status: "completed" },
        },
        { type: "item.completed", item: { id: "c2", type: "mcp_tool_call", status: "failed" } },
        {
          type: "item.completed",
          item: { id: "m", type: "agent_message", text: "VERDICT: Clean" },
        },
      ),
    );
    expect(mixed.toolCalls).toEqual({ attempted: 2, failed: 1 });
    const claude = parseAgentOutput(
      lines(
        {
          type: "assistant",
          message: { id: "a", content: [{ type: "tool_use", id: "t1", name: "Read", input: {} }] },
        },
        {
          type: "user",
          message: {
            content: [
              { type: "tool_result", tool_use_id: "t1", is_error: true, content: "EACCES" },
            ],
          },
        },
        { type: "result", result: "VERDICT: Clean" },
      ),
    );
    expect(claude.toolCalls).toEqual({ attempted: 1, failed: 1 });
    expect(parseAgentOutput("plain answer").toolCalls).toBeUndefined();
  });

  it("joins streaming deltas of one message", () => {
    const result = parseAgentOutput(
      lines(
        { type: "message", role: "user", content: "prompt" },
        { type: "message", role: "assistant", content: "VERDICT: ", delta: true },
        { type: "message", role: "assistant", content: "Clean", delta: true },
      ),
    );
    expect(result.text).toBe("VERDICT: Clean");
    expect(result.transcript).toEqual([{ role: "user", content: "prompt" }]);
  });

  it("keeps the transcript when no turn carries text, so finalize can still look", () => {
    const result = parseAgentOutput(
      lines({
        role: "assistant",
        content: "",
        tool_calls: [{ id: "c", function: { name: "grep", arguments: { pattern: "x" } } }],
      }),
    );
    expect(result.text).toBe("");
    expect(result.transcript).toEqual([
      {
        role: "assistant",
        content: "",
        toolCalls: [{ id: "c", name: "grep", arguments: '{"pattern":"x"}' }],
      },
    ]);
  });
});
