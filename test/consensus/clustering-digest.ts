import { createHash } from "node:crypto";
import type { Cluster } from "../../src/consensus/cluster.js";
import type { Finding } from "../../src/consensus/finding.js";

/**
 * A fingerprint of everything clustering decided, with findings named by their position in the
 * input: two implementations that group, order, rank and name alike give the same digest.
 */
export function clusteringDigest(findings: readonly Finding[], clusters: readonly Cluster[]) {
  const position = new Map(findings.map((finding, index) => [finding, index]));
  const at = (finding: Finding) => position.get(finding) ?? -1;
  const text = JSON.stringify(
    clusters.map((cluster) => [
      cluster.fingerprint,
      cluster.findings.map(at),
      at(cluster.representative),
      cluster.models,
      cluster.severity,
      cluster.unsure === true,
    ]),
  );
  return createHash("sha256").update(text).digest("hex").slice(0, 32);
}
