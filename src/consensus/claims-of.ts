import type { Cluster } from "./cluster.js";
import type { Finding } from "./finding.js";

/** One claim a cluster puts to cross-examination: one model's finding, under its own key. */
export interface Claim {
  /** The key its answers come back under (`ChallengeResult.fingerprint`). */
  fingerprint: string;
  /** The model that made the claim: never asked about it. */
  model: string;
  /** Its best finding in the cluster (the order of `Cluster.findings`). */
  finding: Finding;
}

/**
 * The claims of a cluster that only cross-examination can make agreement: a lone cluster's
 * one claim (its representative, under the cluster's fingerprint); an `unsure` cluster's
 * claim per model (the representative's under the cluster's fingerprint, each other model's
 * under `<fingerprint>~<n>`, n its place in `models`), since a weak merge may hide two
 * different claims and each must be tested on its own. Agreed clusters have none.
 */
export function claimsOf(cluster: Cluster): Claim[] {
  if (cluster.unsure !== true) {
    return cluster.models.length === 1
      ? [
          {
            fingerprint: cluster.fingerprint,
            model: cluster.representative.model,
            finding: cluster.representative,
          },
        ]
      : [];
  }
  return cluster.models.flatMap((model, index) => {
    const finding =
      model === cluster.representative.model
        ? cluster.representative
        : cluster.findings.find((member) => member.model === model);
    if (finding === undefined) return [];
    const fingerprint =
      model === cluster.representative.model
        ? cluster.fingerprint
        : `${cluster.fingerprint}~${index}`;
    return [{ fingerprint, model, finding }];
  });
}
