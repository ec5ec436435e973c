import type { LensFinding, Verdict } from "./schema.js";

/** The verdict for a set of severities: any high is significant, any at all minor. */
export function verdictForSeverities(severities: readonly string[]): Verdict {
  if (severities.includes("high")) return "Significant issues";
  return severities.length > 0 ? "Minor issues" : "No material issues found";
}

/** The published verdict follows from the findings, not from what the model wrote. */
export function deriveVerdict(findings: readonly LensFinding[]): Verdict {
  return verdictForSeverities(findings.map((finding) => finding.severity));
}
