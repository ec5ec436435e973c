import type { CarriedFinding, PreviousFinding } from "../consensus/index.js";
import { mapLinesThroughPatch } from "../diff/index.js";
import type { ReviewScope } from "./change-set.js";

/** A previous finding whose lines the push touched: to be re-checked at this head. */
export interface FindingToRecheck {
  finding: PreviousFinding;
  /** Its file at this head, when the PR moved it (absent: where it was). */
  file?: string;
  /** Where to look: its old lines (the push changed them, so no place is certain). */
  line: number;
  endLine: number;
}

export interface CarryPlan {
  /** Findings whose lines the push left alone: still open, at their lines at this head. */
  carry: CarriedFinding[];
  recheck: FindingToRecheck[];
}

/**
 * What an incremental round does with the previous round's findings nobody reported again.
 * One in a file the push did not touch, or whose lines it did not touch, is carried as still
 * open (its lines followed through the push's patch); one whose lines it touched is re-checked.
 * A finding in a file the step moved (a rename) follows it and is re-checked at its new path: a
 * move fixes nothing. A finding without stored detail, or in a file no longer changed by the
 * pull request (reverted), is neither: compared as before, it shows as fixed.
 */
export function planCarry(
  unmatched: readonly PreviousFinding[],
  scope: Extract<ReviewScope, { kind: "incremental" }>,
  pullPaths: ReadonlySet<string>,
): CarryPlan {
  const stepFiles = new Map(scope.files.map((file) => [file.path, file]));
  const wholePatch = new Set(scope.wholePatch ?? []);
  const plan: CarryPlan = { carry: [], recheck: [] };
  const movedTo = new Map(
    scope.files
      .filter((file) => file.oldPath !== null && file.oldPath !== file.path)
      .map((file) => [file.oldPath as string, file.path]),
  );
  for (const finding of unmatched) {
    if (finding.detail === undefined) continue;
    const { line } = finding;
    const endLine = Math.max(line, finding.detail.endLine);
    const moved = movedTo.get(finding.file);
    if (moved !== undefined && pullPaths.has(moved)) {
      plan.recheck.push({ finding, file: moved, line, endLine });
      continue;
    }
    if (!pullPaths.has(finding.file)) continue;
    const stepFile = stepFiles.get(finding.file);
    const mapped =
      stepFile === undefined
        ? { line, endLine }
        : wholePatch.has(finding.file)
          ? "touched"
          : mapLinesThroughPatch(stepFile, line, endLine);
    if (mapped === "touched") plan.recheck.push({ finding, line, endLine });
    else plan.carry.push({ fingerprint: finding.fingerprint, ...mapped });
  }
  return plan;
}
