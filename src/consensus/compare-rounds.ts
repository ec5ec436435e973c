import type { Cluster } from "./cluster.js";
import type { CarriedFinding, PreviousFinding, RoundComparison } from "./consensus.js";
import type { Finding } from "./finding.js";
import { matchPreviousFindings } from "./match-previous-findings.js";

export interface RoundsCompared {
  /** This round's clusters, in the same order; a still-open one keeps its earlier fingerprint. */
  clusters: Cluster[];
  comparison: RoundComparison;
}

/**
 * Classifies this round's clusters against the previous round's published findings: still
 * open (matched by fingerprint, or same file and a similar problem though reworded or moved),
 * fresh (unmatched), and fixed (previous findings matched by nothing now). An incremental
 * round's reviewers saw only the push, so a previous finding nobody reported again is not
 * fixed when `carry` names it (its lines untouched, or re-checked): it joins the clusters as
 * still open, rebuilt from what its round stored.
 */
export function compareRounds(input: {
  round: number;
  previousHeadSha: string;
  previous: readonly PreviousFinding[];
  clusters: readonly Cluster[];
  carry?: readonly CarriedFinding[];
}): RoundsCompared {
  const matches = matchPreviousFindings(input.previous, input.clusters);
  const inUse = new Set(input.clusters.map((cluster) => cluster.fingerprint));
  const updated = input.clusters.map((cluster, index) => {
    const earlier = input.previous[matches.get(index) ?? -1];
    // Keeping the earlier fingerprint lets the next round, and inline de-duplication, follow
    // the problem through rewordings; never at the price of two clusters sharing one.
    if (earlier === undefined || inUse.has(earlier.fingerprint)) {
      return cluster;
    }
    inUse.add(earlier.fingerprint);
    return { ...cluster, fingerprint: earlier.fingerprint };
  });
  const matchedPrevious = new Set(matches.values());
  const carry = new Map((input.carry ?? []).map((entry) => [entry.fingerprint, entry]));
  const carried: Cluster[] = [];
  const fixed: PreviousFinding[] = [];
  for (const [index, previous] of input.previous.entries()) {
    if (matchedPrevious.has(index)) continue;
    const at = carry.get(previous.fingerprint);
    // Two clusters never share a fingerprint: one taken by a cluster of this round stays its.
    if (at === undefined || previous.detail === undefined || inUse.has(previous.fingerprint)) {
      fixed.push(previous);
      continue;
    }
    inUse.add(previous.fingerprint);
    carried.push(carriedCluster(previous, previous.detail, at, input.round - 1));
  }
  return {
    clusters: [...updated, ...carried],
    comparison: {
      round: input.round,
      previousHeadSha: input.previousHeadSha,
      fresh: updated.filter((_, index) => !matches.has(index)),
      stillOpen: [...updated.filter((_, index) => matches.has(index)), ...carried],
      fixed,
    },
  };
}

/** An earlier round's finding as a cluster of this round, at its lines at this head. */
function carriedCluster(
  previous: PreviousFinding,
  detail: NonNullable<PreviousFinding["detail"]>,
  at: CarriedFinding,
  previousRound: number,
): Cluster {
  const findings: Finding[] = detail.models.map((model) => ({
    file: at.file ?? previous.file,
    line: at.line,
    endLine: at.endLine,
    severity: previous.severity,
    confidence: detail.confidence,
    title: previous.title,
    body: detail.body,
    model,
    lens: detail.lens,
  }));
  const [representative] = findings as [Finding, ...Finding[]];
  return {
    fingerprint: previous.fingerprint,
    findings,
    models: [...detail.models],
    representative,
    severity: previous.severity,
    ...(detail.confirmedBy === undefined || detail.confirmedBy.length === 0
      ? {}
      : { confirmedBy: [...detail.confirmedBy] }),
    // Carried as it was published: a weak merge stays one model's finding.
    ...(detail.unsure === true ? { unsure: true as const } : {}),
    carried: {
      since: detail.since ?? previousRound,
      ...(at.recheck === undefined ? {} : { recheck: at.recheck }),
    },
  };
}
