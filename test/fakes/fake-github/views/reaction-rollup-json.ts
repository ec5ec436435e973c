import type { ReactionRecord } from "../types.js";

/** The `reactions` rollup GitHub puts on issue and review comments (OpenAPI `reaction-rollup`). */
export function reactionRollupJson(
  url: string,
  reactions: readonly ReactionRecord[],
): Record<string, unknown> {
  const count = (content: string) =>
    reactions.filter((reaction) => reaction.content === content).length;
  return {
    url,
    total_count: reactions.length,
    "+1": count("+1"),
    "-1": count("-1"),
    laugh: count("laugh"),
    hooray: count("hooray"),
    confused: count("confused"),
    heart: count("heart"),
    rocket: count("rocket"),
    eyes: count("eyes"),
  };
}
