import { contractEntry, FINDINGS_FENCE_INFO, type LensFinding } from "../findings/index.js";

/** The verification turn: re-check every finding in the source, keep only what holds. */
export function verifyPrompt(findings: readonly LensFinding[], withRepoTools: boolean): string {
  const entries = findings.map(contractEntry);
  const how = withRepoTools ? "with the tools (`read_file`, `grep`)" : "with your tools";
  return `Verification pass. Before your review is published, re-check each of its ${findings.length} finding(s) against the source ${how}: open the cited file at the cited lines, confirm the code says what the finding claims, that the problem is real (find the input or the path that triggers it), and that this change introduced or touched it. Drop every finding that does not hold or that you cannot confirm. Do not add findings and do not rewrite the ones that survive.

The findings to verify:

\`\`\`json
${JSON.stringify(entries, null, 2)}
\`\`\`

Answer with a short verification note (one to three sentences: what you checked, which findings survive, why any were dropped), then the \`VERDICT:\` line and the \`${FINDINGS_FENCE_INFO}\` block holding only the surviving findings, copied unchanged (\`[]\` if none survive).`;
}
