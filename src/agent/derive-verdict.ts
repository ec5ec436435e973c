import type { LensFinding, Verdict } from "../findings/index.js";

/** The published verdict follows from the findings, not from what the model wrote. */
export function deriveVerdict(findings: readonly LensFinding[]): Verdict {
  if (findings.some((finding) => finding.severity === "high")) return "Significant issues";
  if (findings.length > 0) return "Minor issues";
  return "No material issues found";
}
