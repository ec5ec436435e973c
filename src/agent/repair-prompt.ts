import { FINDINGS_FENCE_INFO } from "../findings/index.js";

/** The one repair turn: the answer had no usable findings block. */
export function repairPrompt(problems: readonly string[]): string {
  const list =
    problems.length === 0
      ? "- the block is missing"
      : problems.map((problem) => `- ${problem}`).join("\n");
  return `Your answer cannot be published: it must end with the \`VERDICT:\` line and a \`${FINDINGS_FENCE_INFO}\` block holding a JSON array. Here is what was wrong:

${list}

Reply with only the \`VERDICT:\` line and the \`${FINDINGS_FENCE_INFO}\` block for the review you just wrote: one object per finding with file, line, end_line, severity, confidence, title and body; an empty array \`[]\` if you found nothing. No tools, no other text.`;
}
