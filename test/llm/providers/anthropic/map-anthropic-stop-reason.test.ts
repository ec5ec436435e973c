import { describe, expect, it } from "vitest";
import { mapAnthropicStopReason } from "../../../../src/llm/providers/anthropic/map-anthropic-stop-reason.js";

describe("mapAnthropicStopReason", () => {
  it.each([
    ["end_turn", false, "stop"],
    ["end_turn", true, "tool-calls"],
    ["stop_sequence", false, "stop"],
    ["tool_use", true, "tool-calls"],
    ["tool_use", false, "tool-calls"],
    ["max_tokens", false, "length"],
    ["model_context_window_exceeded", false, "length"],
    ["refusal", false, "content-filter"],
    ["pause_turn", false, "other"],
    ["something_new", false, "other"],
    [null, true, "tool-calls"],
    [null, false, "other"],
    [undefined, false, "other"],
  ] as const)("%s (tool calls: %s) is %s", (reason, hasToolCalls, expected) => {
    expect(mapAnthropicStopReason(reason, hasToolCalls)).toBe(expected);
  });
});
