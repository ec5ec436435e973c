import { SEVERITY_RANK } from "../findings/index.js";
import { agreementOf } from "./apply-challenges.js";
import type { Cluster } from "./cluster.js";

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Most agreement first (models that reported it, and those that confirmed it on
 * cross-examination), then most severe, then by place (file, line), then by fingerprint, which
 * is unique within a round: a total order.
 */
export function rankClusters(clusters: readonly Cluster[]): Cluster[] {
  return [...clusters].sort(
    (a, b) =>
      agreementOf(b) - agreementOf(a) ||
      SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] ||
      compareText(a.representative.file, b.representative.file) ||
      a.representative.line - b.representative.line ||
      a.representative.endLine - b.representative.endLine ||
      compareText(a.fingerprint, b.fingerprint),
  );
}
