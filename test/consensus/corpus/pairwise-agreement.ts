import type { Cluster } from "../../../src/consensus/cluster.js";
import type { LabelledFinding } from "./corpus-scenario.js";

/** Pair counts over one scenario: a pair is positive when both findings share a cluster. */
export interface PairCounts {
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
}

/** Compares predicted clusters with the labels over every pair of findings. */
export function pairwiseAgreement(
  findings: readonly LabelledFinding[],
  clusters: readonly Pick<Cluster, "findings">[],
): PairCounts {
  const predicted = new Map<unknown, number>();
  clusters.forEach((cluster, index) => {
    for (const finding of cluster.findings) {
      predicted.set(finding, index);
    }
  });
  const counts: PairCounts = { truePositives: 0, falsePositives: 0, falseNegatives: 0 };
  for (let i = 0; i < findings.length; i += 1) {
    for (let j = i + 1; j < findings.length; j += 1) {
      const a = findings[i];
      const b = findings[j];
      if (a === undefined || b === undefined) {
        continue;
      }
      const labelledSame = a.cluster === b.cluster;
      const predictedSame = predicted.get(a) !== undefined && predicted.get(a) === predicted.get(b);
      if (labelledSame && predictedSame) {
        counts.truePositives += 1;
      } else if (predictedSame) {
        counts.falsePositives += 1;
      } else if (labelledSame) {
        counts.falseNegatives += 1;
      }
    }
  }
  return counts;
}

export function precision(counts: PairCounts): number {
  const predicted = counts.truePositives + counts.falsePositives;
  return predicted === 0 ? 1 : counts.truePositives / predicted;
}

export function recall(counts: PairCounts): number {
  const labelled = counts.truePositives + counts.falseNegatives;
  return labelled === 0 ? 1 : counts.truePositives / labelled;
}

/**
 * The clusters as agreement sees them: an `unsure` cluster (merged on weak evidence) is not
 * agreement until cross-examination confirms it, so each of its models' findings stand apart.
 */
export function agreedGroups(clusters: readonly Cluster[]): Pick<Cluster, "findings">[] {
  return clusters.flatMap((cluster) =>
    cluster.unsure === true
      ? cluster.models.map((model) => ({
          findings: cluster.findings.filter((finding) => finding.model === model),
        }))
      : [cluster],
  );
}
