import type { Cluster } from "./cluster.js";
import type { PreviousFinding, RoundComparison } from "./consensus.js";
import { matchPreviousFindings } from "./match-previous-findings.js";

export interface RoundsCompared {
  /** This round's clusters, in the same order; a still-open one keeps its earlier fingerprint. */
  clusters: Cluster[];
  comparison: RoundComparison;
}

/**
 * Classifies this round's clusters against the previous round's published findings: still
 * open (matched by fingerprint, or same file and a similar problem though reworded or moved),
 * fresh (unmatched), and fixed (previous findings matched by nothing now).
 */
export function compareRounds(input: {
  round: number;
  previousHeadSha: string;
  previous: readonly PreviousFinding[];
  clusters: readonly Cluster[];
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
  return {
    clusters: updated,
    comparison: {
      round: input.round,
      previousHeadSha: input.previousHeadSha,
      fresh: updated.filter((_, index) => !matches.has(index)),
      stillOpen: updated.filter((_, index) => matches.has(index)),
      fixed: input.previous.filter((_, index) => !matchedPrevious.has(index)),
    },
  };
}
