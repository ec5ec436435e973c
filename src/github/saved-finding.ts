import type { Cluster, PreviousFinding } from "../consensus/index.js";

/** What a later incremental round needs to carry a finding nobody reports again. */
export function savedFinding(cluster: Cluster): PreviousFinding {
  return {
    fingerprint: cluster.fingerprint,
    title: cluster.representative.title,
    file: cluster.representative.file,
    line: cluster.representative.line,
    severity: cluster.severity,
    detail: {
      endLine: cluster.representative.endLine,
      models: cluster.models,
      ...(cluster.confirmedBy === undefined ? {} : { confirmedBy: cluster.confirmedBy }),
      // A weak merge nobody confirmed is not agreement: the scoreboard must not count it.
      ...(cluster.unsure === true ? { unsure: true as const } : {}),
      lens: cluster.representative.lens,
      confidence: cluster.representative.confidence,
      body: cluster.representative.body,
      ...(cluster.carried === undefined ? {} : { since: cluster.carried.since }),
      ...(cluster.context === undefined ? {} : { context: cluster.context }),
    },
  };
}
