import type { FinishReason } from "../../language-model.js";

/**
 * Messages API stop reasons in our vocabulary. The tool calls decide "tool-calls": a turn that
 * stopped on a stop sequence while asking for tools still asks for them.
 */
export function mapAnthropicStopReason(
  reason: string | null | undefined,
  hasToolCalls: boolean,
): FinishReason {
  switch (reason) {
    case "tool_use":
      return "tool-calls";
    case "end_turn":
    case "stop_sequence":
      return hasToolCalls ? "tool-calls" : "stop";
    case "max_tokens":
    case "model_context_window_exceeded":
      return "length";
    case "refusal":
      return "content-filter";
    case null:
    case undefined:
      return hasToolCalls ? "tool-calls" : "other";
    default:
      // "pause_turn" (a server tool paused the turn) and whatever comes next.
      return "other";
  }
}
