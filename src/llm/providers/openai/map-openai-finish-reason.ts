import type { FinishReason } from "../../language-model.js";

/**
 * Chat-completions finish reasons in our vocabulary. Some compatible servers say "stop"
 * while returning tool calls; the calls are what matters, so that is "tool-calls".
 */
export function mapOpenAIFinishReason(
  reason: string | null | undefined,
  hasToolCalls: boolean,
): FinishReason {
  switch (reason) {
    case "tool_calls":
    case "function_call":
      return "tool-calls";
    case "stop":
      return hasToolCalls ? "tool-calls" : "stop";
    case "length":
      return "length";
    case "content_filter":
      return "content-filter";
    case null:
    case undefined:
      return hasToolCalls ? "tool-calls" : "other";
    default:
      return "other";
  }
}
