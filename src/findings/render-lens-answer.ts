import { FINDINGS_FENCE_INFO, type LensFinding } from "./schema.js";

/**
 * Writes a lens answer in the contract's exact shape: the inverse of
 * parseLensAnswer, used by recordings, the demo and the round-trip test.
 */
export function renderLensAnswer(
  verdict: string,
  findings: readonly LensFinding[],
  prose = "",
): string {
  const entries = findings.map((finding) => ({
    file: finding.file,
    line: finding.line,
    end_line: finding.endLine,
    severity: finding.severity,
    confidence: finding.confidence,
    title: finding.title,
    body: finding.body,
  }));
  const head = prose.trim() === "" ? "" : `${prose.trim()}\n\n`;
  return `${head}VERDICT: ${verdict}\n\`\`\`${FINDINGS_FENCE_INFO}\n${JSON.stringify(entries, null, 2)}\n\`\`\`\n`;
}

/** A finding as the output contract spells it (snake_case `end_line`). */
export function contractEntry(finding: LensFinding): Record<string, unknown> {
  return {
    file: finding.file,
    line: finding.line,
    end_line: finding.endLine,
    severity: finding.severity,
    confidence: finding.confidence,
    title: finding.title,
    body: finding.body,
  };
}
