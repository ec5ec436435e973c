import { supersededReason } from "../run/index.js";
import { escapeInline } from "./escape/markdown-line.js";

/** How a round that did not publish a review says why: on the board, in the store, on the check. */

/** A check run's title and summary. */
export interface CheckOutput {
  title: string;
  summary: string;
}

const shortSha = (sha: string): string => sha.slice(0, 7);

export { supersededReason };

/** The check of a round a newer push replaced. */
export function supersededCheck(bySha: string): CheckOutput {
  const short = shortSha(bySha);
  return {
    title: `Superseded by ${short}`,
    summary: `A newer push (\`${short}\`) started a new review round.`,
  };
}

/** The check of a round cancelled for a public `reason` (escaped here). */
export function cancelledCheck(reason: string): CheckOutput {
  return {
    title: "Review cancelled",
    summary: `The review round was cancelled: ${escapeInline(reason)}.`,
  };
}

/** The check of a round whose pull request was closed before the round could finish. */
export function closedCheck(): CheckOutput {
  return {
    title: "Pull request closed",
    summary: "The pull request moved on before this review round could finish.",
  };
}

/** The check of a round started for a head the pull request no longer has. */
export function movedOnCheck(headSha: string): CheckOutput {
  return {
    title: `Superseded by ${shortSha(headSha)}`,
    summary: "The pull request moved on before this review round could finish.",
  };
}

/** The check of a round that failed, for a public `reason` (escaped here). */
export function failedCheck(reason: string): CheckOutput {
  return {
    title: "Gadfly could not finish this review",
    summary: `The review round failed: ${escapeInline(reason)}. Comment \`@gadfly review\` to try again.`,
  };
}
