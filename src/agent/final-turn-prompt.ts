import { FINDINGS_FENCE_INFO } from "../findings/index.js";

/** Why the tool loop stopped before the model answered on its own. */
export type LoopStop = "max-turns" | "timeout";

/** The last, tool-free turn: the model must answer with what it has. */
export function finalTurnPrompt(stop: LoopStop, budget: string): string {
  const why =
    stop === "max-turns"
      ? `You have used your tool budget (${budget}).`
      : `Your time budget (${budget}) is exhausted.`;
  return `${why} Tools are no longer available. Give your final answer now, complete on its own, from what you have verified so far: prose, then the \`VERDICT:\` line, then the \`${FINDINGS_FENCE_INFO}\` block (\`[]\` if you found nothing you could confirm). Report only what you checked in the source.`;
}
