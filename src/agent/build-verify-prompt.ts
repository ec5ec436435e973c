import { summarizeChange } from "../diff/index.js";
import type { LensFinding } from "../findings/index.js";
import { lensHeading, reviewSystemText } from "./build-review-prompt.js";
import { fenceUntrusted } from "./fence-untrusted.js";
import type { ToolAccess } from "./review-contract.js";
import type { ReviewSession } from "./review-session.js";
import { verifyPrompt } from "./turn-prompts.js";

/**
 * Diff characters a compact verification shows: the hunks of the files its findings cite, no
 * more. The findings say where to look; the tools read the rest.
 */
export const VERIFY_DIFF_BUDGET_CHARS = 8_000;

/** The opening messages of a compact verification: its own short session, not the review's. */
export interface VerifyPrompt {
  /** The review's system text, byte for byte: the provider's cached prefix serves both. */
  system: string;
  /** The lens, the pull request's title and the cited files' hunks. */
  context: string;
  /** The findings to re-check and the answer wanted. */
  request: string;
}

/**
 * A verification that starts afresh from the findings instead of resending the whole review:
 * the review's system text, a context naming the lens with the cited files' hunks within
 * VERIFY_DIFF_BUDGET_CHARS, then the verification request.
 */
export function buildVerifyPrompt(
  session: ReviewSession,
  findings: readonly LensFinding[],
  access: ToolAccess,
): VerifyPrompt {
  const { lens, input } = session.prompt;
  const cited = new Set(findings.map((finding) => finding.file));
  const files = (session.changes?.files ?? []).filter(
    (file) => cited.has(file.path) || (file.oldPath !== null && cited.has(file.oldPath)),
  );
  const summary = summarizeChange(files, VERIFY_DIFF_BUDGET_CHARS);
  const context = [
    lensHeading(lens),
    `You reviewed the pull request below through the ${lens.emoji} ${lens.title} lens. This session re-checks your findings before they are published.`,
    fenceUntrusted("Title", input.title),
    fenceUntrusted(
      `Changed files your findings cite (${files.length})`,
      summary.listing.length === 0
        ? "(none of them is a changed file)"
        : summary.listing.join("\n"),
    ),
    fenceUntrusted("Diff of those files (the highest-priority hunks)", summary.hunks, "diff"),
  ];
  return {
    system: reviewSystemText(input.conventions ?? [], access),
    context: context.join("\n\n"),
    request: verifyPrompt(findings, access === "repo-tools"),
  };
}
