import type { LensFinding } from "../findings/index.js";
import type { Message } from "../llm/index.js";

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
