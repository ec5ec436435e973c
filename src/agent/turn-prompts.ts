import { contractEntry, FINDINGS_FENCE_INFO, type LensFinding } from "../findings/index.js";

/*
 * The texts of the turns that follow a review's first answer, each restating the output contract
 * of review-contract.ts: the tool-free final turn, the repair turn and the verification pass.
 */

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

/** The one repair turn: the answer had no usable findings block. */
export function repairPrompt(problems: readonly string[]): string {
  const list =
    problems.length === 0
      ? "- the block is missing"
      : problems.map((problem) => `- ${problem}`).join("\n");
  return `Your answer cannot be published: it must end with the \`VERDICT:\` line and a \`${FINDINGS_FENCE_INFO}\` block holding a JSON array. Here is what was wrong:

${list}

Reply with only the \`VERDICT:\` line and the \`${FINDINGS_FENCE_INFO}\` block for the review you just wrote: one object per finding with file, line, end_line, severity, confidence, title and body (and \`lens\` on your one "Outside my lens" finding, if you reported one); an empty array \`[]\` if you found nothing. No tools, no other text.`;
}

/** The verification turn: re-check every finding in the source, keep only what holds. */
export function verifyPrompt(findings: readonly LensFinding[], withRepoTools: boolean): string {
  const entries = findings.map(contractEntry);
  const how = withRepoTools
    ? "with the tools (`read_file`, `grep`, `get_diff`)"
    : "with your tools";
  return `Verification pass. Before your review is published, re-check each of its ${findings.length} finding(s) against the source ${how}: open the cited file at the cited lines, confirm the code says what the finding claims, that the problem is real (find the input or the path that triggers it), and that this change introduced or touched it. Drop every finding that does not hold or that you cannot confirm. Do not add findings and do not rewrite the ones that survive.

The findings to verify:

\`\`\`json
${JSON.stringify(entries, null, 2)}
\`\`\`

Answer with a short verification note (one to three sentences: what you checked, which findings survive, why any were dropped), then the \`VERDICT:\` line and the \`${FINDINGS_FENCE_INFO}\` block holding only the surviving findings, copied unchanged (\`[]\` if none survive).`;
}
