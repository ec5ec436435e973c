import type { FinishReason } from "../../language-model.js";

/**
 * Ollama's done_reason in our vocabulary. Ollama says "stop" when it returns tool calls,
 * so the calls decide. "load"/"unload" answers carry no generation at all.
 */
export function mapOllamaDoneReason(
  reason: string | undefined,
  hasToolCalls: boolean,
): FinishReason {
  if (hasToolCalls) {
    return "tool-calls";
  }
  switch (reason) {
    case "stop":
    case undefined:
    case "":
      return "stop";
    case "length":
      return "length";
    default:
      return "other";
  }
}
