import type { Message } from "../llm/index.js";
import { checkLensAnswer } from "./check-lens-answer.js";
import { combineAnswers } from "./combine-answers.js";
import { LensFailure } from "./lens-failure.js";
import type { ReviewAnswer } from "./review-answer.js";

/**
 * The answer after a repair turn, the same for chat models and agent CLIs: the
 * review's prose, then the repaired block; a lens failure (never a clean lens)
 * when the repair still has no usable block.
 */
export function repairedAnswer(
  original: string,
  repaired: string,
  recovered: boolean,
  conversation: Message[] | null,
): ReviewAnswer {
  const combined = combineAnswers(original, repaired);
  const recheck = checkLensAnswer(repaired);
  if (!recheck.usable) {
    throw new LensFailure(
      `no findings block after a repair turn: ${recheck.problems.join("; ")}`,
      combined,
    );
  }
  return {
    text: combined,
    statedVerdict: recheck.verdict,
    findings: recheck.findings,
    rejected: recheck.rejected,
    overLimit: recheck.overLimit,
    recovered,
    conversation,
  };
}
