import type { CarriedFinding } from "../consensus/index.js";
import { SEVERITY_RANK } from "../findings/index.js";
import {
  type ChallengeRecord,
  crossExamine,
  type PlannedChallenge,
  type SessionRun,
} from "./cross-examine.js";
import type { FindingToRecheck } from "./plan-carry.js";
import type { Saved } from "./round-request.js";

/** The lens name a re-check's model is built with: one recorded session per finding. */
export function recheckSessionLens(fingerprint: string): string {
  return `recheck-${fingerprint}`;
}

/** What a round re-checks: the findings its push touched, and the models that may answer. */
export interface RecheckRequest {
  findings: readonly FindingToRecheck[];
  /** The round's models, in config order: a finding is re-checked by the first that reported it. */
  models: readonly string[];
  /** The most re-checked in one round (the most severe first); the rest are kept unsure. */
  maxRechecks: number;
}

export interface RecheckResult {
  /** The re-checked findings kept open (confirmed, or not refuted). */
  carried: CarriedFinding[];
  /** Every re-check asked (what it cost is on each record). */
  records: ChallengeRecord[];
}

/**
 * Re-checks previous findings whose lines the push touched (or that it moved): each is put, as
 * cross-examination puts a claim (a short tool session on this head ending in a
 * `gadfly-challenge` block, with finalize and one repair turn), to every model of this round
 * that reported it, or to the round's first model when none of them runs now. A confirmation
 * carries it (re-checked); it shows as fixed only when every model that reported it refutes it,
 * the quorum that made it (verdictOf). An unsure, failed or cancelled re-check, and a finding past
 * `maxRechecks` (the most severe are re-checked first), is carried as still open and marked
 * unsure: a finding is never called fixed without a model saying so.
 */
export async function recheckFindings(
  request: RecheckRequest,
  run: SessionRun,
  saved: Saved<ChallengeRecord> = {},
): Promise<RecheckResult> {
  const first = request.models[0];
  if (request.findings.length === 0 || first === undefined) return { carried: [], records: [] };
  const ordered = [...request.findings].sort(
    (left, right) => SEVERITY_RANK[right.finding.severity] - SEVERITY_RANK[left.finding.severity],
  );
  const asked = ordered.slice(0, Math.max(0, request.maxRechecks));
  const planned: PlannedChallenge[] = asked.flatMap(({ finding, file, line, endLine }) => {
    const reporters = (finding.detail?.models ?? []).filter((model) =>
      request.models.includes(model),
    );
    return (reporters.length === 0 ? [first] : reporters).map((challenger) => ({
      fingerprint: finding.fingerprint,
      challenger,
      claim: {
        lens: finding.detail?.lens ?? "correctness",
        file: file ?? finding.file,
        line,
        endLine,
        severity: finding.severity,
        title: finding.title,
        body: finding.detail?.body ?? "",
      },
    }));
  });
  const records = await crossExamine(planned, run, saved);
  const carried: CarriedFinding[] = [];
  for (const { finding, file, line, endLine } of ordered) {
    const verdict = verdictOf(finding, records);
    if (verdict === "refute") continue;
    carried.push({
      fingerprint: finding.fingerprint,
      ...(file === undefined ? {} : { file }),
      line,
      endLine,
      recheck: verdict === "confirm" ? "confirmed" : "unsure",
    });
  }
  return { carried, records };
}

/**
 * A re-check's verdict on a finding, with the quorum that made it: refuted only when every
 * model that reported it refutes it now (a 2-model finding needs both; a lone one, its own
 * model), confirmed when any of them confirms; anything else (a reporter absent, failed or
 * unsure) leaves it unsure, so kept open.
 */
function verdictOf(
  finding: FindingToRecheck["finding"],
  records: readonly ChallengeRecord[],
): "refute" | "confirm" | "unsure" {
  const answers = new Map(
    records
      .filter((record) => record.fingerprint === finding.fingerprint)
      .map((record) => [record.model, record.outcome === "answered" ? record.verdict : "unsure"]),
  );
  if ([...answers.values()].includes("confirm")) return "confirm";
  const reporters = finding.detail?.models ?? [];
  const refuted =
    reporters.length > 0 && reporters.every((model) => answers.get(model) === "refute");
  return refuted ? "refute" : "unsure";
}
