import type { LensReport } from "../agent/index.js";
import { deriveVerdict, type Verdict, verdictForSeverities } from "../findings/index.js";
import type { Cluster } from "./cluster.js";

const VERDICT_RANK: Record<Verdict, number> = {
  "No material issues found": 0,
  "Minor issues": 1,
  "Significant issues": 2,
};

/** A lens's verdict from its surviving findings: the one rule, `deriveVerdict` in findings/. */
export const lensVerdict = deriveVerdict;

/**
 * A model's verdict: the worst of its done lenses. Null when no lens is done (every one
 * failed, was cancelled or was skipped): such a model has no opinion and does not count,
 * neither in the round's model count nor in any cluster's agreement.
 */
export function modelVerdict(lenses: readonly LensReport[]): Verdict | null {
  let worst: Verdict | null = null;
  for (const lens of lenses) {
    if (lens.outcome !== "done") {
      continue;
    }
    const verdict = lensVerdict(lens.findings);
    if (worst === null || VERDICT_RANK[verdict] > VERDICT_RANK[worst]) {
      worst = verdict;
    }
  }
  return worst;
}

/**
 * The round's verdict from the clusters that stand: a high-severity cluster is significant,
 * any cluster minor. A disputed cluster (refuted on cross-examination) is shown but does not
 * raise it: a lone false high must not make a clean change "Significant issues".
 */
export function overallVerdict(clusters: readonly Cluster[]): Verdict {
  return verdictForSeverities(
    clusters.filter((cluster) => cluster.disputed !== true).map((cluster) => cluster.severity),
  );
}
