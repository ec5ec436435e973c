import type { LensReport } from "../agent/index.js";
import type { CarriedFinding, PreviousFinding } from "../consensus/index.js";

/**
 * Whether this round could tell that an earlier finding is gone. It cannot when a model that
 * reported it had its lens this round and did not finish it (failed, skipped for the budget,
 * cancelled): its silence is no evidence. In a full round it also cannot when no model at all
 * finished the finding's lens. A finding without stored detail is judged as before.
 */
export function couldTell(
  finding: PreviousFinding,
  reports: readonly LensReport[],
  full: boolean,
): boolean {
  const { detail } = finding;
  if (detail === undefined) return true;
  const onLens = reports.filter((report) => report.lens === detail.lens);
  const reporterUnfinished = onLens.some(
    (report) => detail.models.includes(report.model) && report.outcome !== "done",
  );
  if (reporterUnfinished) return false;
  return !full || onLens.some((report) => report.outcome === "done");
}

/**
 * The earlier findings nobody reported again that this round could not tell about, kept open
 * where they were and said to be not re-checked this round (their threads stay open).
 */
export function notRechecked(
  unreported: readonly PreviousFinding[],
  reports: readonly LensReport[],
  full: boolean,
): CarriedFinding[] {
  return unreported
    .filter((finding) => !couldTell(finding, reports, full))
    .map((finding) => ({
      fingerprint: finding.fingerprint,
      line: finding.line,
      endLine: Math.max(finding.line, finding.detail?.endLine ?? finding.line),
      recheck: "not-rechecked" as const,
    }));
}
