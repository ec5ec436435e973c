import type { Cluster } from "../../../src/consensus/cluster.js";
import { applyChallenges, type ChallengeResult, claimsOf } from "../../../src/consensus/index.js";
import type { LabelledFinding } from "./corpus-scenario.js";

/**
 * How the challengers of an unsure cluster's claims answer. `truth`: as a truthful model would
 * answer the challenge prompt ("does the code have this problem?"): every corpus finding is a
 * real problem, so every claim is confirmed. `same-defect`: a challenger confirms a claim only
 * when its own finding in the cluster is the same labelled defect (the best a cross-examination
 * could do if it asked "is this the problem you reported?").
 */
export type ChallengerModel = "truth" | "same-defect";

/**
 * The rows as published once cross-examination has settled the unsure clusters
 * (applyChallenges): each claim of an unsure cluster put to the cluster's other models.
 */
export function publishedGroups(
  clusters: readonly Cluster[],
  challengers: ChallengerModel,
): Cluster[] {
  const answers: ChallengeResult[] = [];
  for (const cluster of clusters) {
    if (cluster.unsure !== true) continue;
    for (const claim of claimsOf(cluster)) {
      const label = (claim.finding as LabelledFinding).cluster;
      for (const model of cluster.models) {
        if (model === claim.model) continue;
        const own = cluster.findings.filter((finding) => finding.model === model);
        const same = own.some((finding) => (finding as LabelledFinding).cluster === label);
        const verdict = challengers === "truth" || same ? "confirm" : "refute";
        answers.push({ fingerprint: claim.fingerprint, model, verdict, reason: "", checked: null });
      }
    }
  }
  return applyChallenges(clusters, answers);
}
