import type { Finding } from "../../src/consensus/finding.js";
import type { Cluster } from "../../src/consensus/index.js";

/**
 * A cluster of `findings`, the first one its representative. The models default to
 * the findings' models in the order they first appear.
 */
export function cluster(
  fingerprint: string,
  findings: Finding[],
  models: string[] = [...new Set(findings.map((finding) => finding.model))],
): Cluster {
  const [representative] = findings;
  if (representative === undefined) throw new Error("a cluster needs a finding");
  return { fingerprint, findings, models, representative, severity: representative.severity };
}
