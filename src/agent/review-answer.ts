import type { LensContext, LensFinding } from "../findings/index.js";
import type { Message } from "../llm/index.js";
import { checkLensAnswer } from "./check-lens-answer.js";
import { LensFailure } from "./public-failure-reason.js";

/** A lens answer that parsed: what the review phase hands to verification and the report. */
export interface ReviewAnswer {
  /** The review as published (recovered by finalize; the repair appended when there was one). */
  text: string;
  /** The model's VERDICT line. */
  statedVerdict: string | null;
  findings: LensFinding[];
  /** Entries of the block that could not be used. */
  rejected: string[];
  /** Valid findings beyond the per-lens limit, left out of `findings`. */
  overLimit: number;
  /** Finalize replaced a degenerate terminal turn. */
  recovered: boolean;
  /** Chat models: the conversation so far, ending with the answer; verification continues it. */
  conversation: Message[] | null;
}

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
  context?: LensContext,
): ReviewAnswer {
  const combined = combineAnswers(original, repaired);
  const recheck = checkLensAnswer(repaired, context);
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

/** The published text after a repair: the review's prose, then the repaired block. */
export function combineAnswers(original: string, repaired: string): string {
  const before = original.trim();
  const after = repaired.trim();
  if (before === "" || after.includes(before)) return after;
  return `${before}\n\n${after}`;
}
