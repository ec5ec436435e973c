import type { LensReport } from "../agent/index.js";
import type { LensFinding } from "../findings/index.js";
import { createRedactor } from "../llm/index.js";

/**
 * A lens report with every known secret removed from what a model wrote: a
 * model that read a key (from a file, an error, its own prompt) and repeats it
 * must not get it published on a PR or stored.
 */
export function redactReport(report: LensReport, secrets: readonly string[]): LensReport {
  const clean = createRedactor(secrets);
  const cleanFinding = (finding: LensFinding): LensFinding => ({
    ...finding,
    title: clean(finding.title),
    body: clean(finding.body),
    // A suggestion is published as code a maintainer may commit: a secret in it is redacted too.
    ...(finding.suggestion === undefined ? {} : { suggestion: clean(finding.suggestion) }),
  });
  return {
    ...report,
    text: clean(report.text),
    statedVerdict: report.statedVerdict === null ? null : clean(report.statedVerdict),
    failure: report.failure === null ? null : clean(report.failure),
    findings: report.findings.map(cleanFinding),
    dropped: report.dropped.map(cleanFinding),
  };
}
