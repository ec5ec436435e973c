import type { Cluster } from "../../../src/consensus/cluster.js";
import { applyChallenges, type ChallengeResult, claimsOf } from "../../../src/consensus/index.js";
import { planChallenges } from "../../../src/run/cross-examine.js";
import type { LabelledFinding } from "./corpus-scenario.js";

/**
 * How the challengers of an unsure cluster's claims answer the questions planChallenges asks.
 * `truth`: as a truthful model answers them. Every corpus finding is a real problem, so a
 * challenger asked only whether it exists (a model with no claim in the cluster) confirms; one
 * asked whether it is the same defect as its own claim (`own`) confirms when the two carry one
 * label and answers unsure otherwise (a different defect). `exists-only`: the question as it
 * was before, "does the code have this problem?", which every challenger confirms; kept to show
 * what asking only that published.
 */
export type ChallengerModel = "truth" | "exists-only";

/**
 * The rows as published once cross-examination has settled the unsure clusters
 * (applyChallenges): each claim of an unsure cluster put to every other model of the scenario,
 * as planChallenges plans it (no severity floor, no cap: the figure is about the answers).
 */
export function publishedGroups(
  clusters: readonly Cluster[],
  challengers: ChallengerModel,
  models: readonly string[],
): Cluster[] {
  const answers: ChallengeResult[] = [];
  for (const cluster of clusters) {
    if (cluster.unsure !== true) continue;
    const claims = claimsOf(cluster);
    const labelOf = (fingerprint: string) =>
      (
        claims.find((claim) => claim.fingerprint === fingerprint)?.finding as
          | LabelledFinding
          | undefined
      )?.cluster;
    const planned = planChallenges([cluster], models, { minSeverity: "nit", maxChallenges: 99 });
    for (const { fingerprint, challenger, own } of planned) {
      const ownClaim = claims.find(
        (claim) =>
          claim.model === challenger &&
          claim.finding.title === own?.title &&
          claim.finding.line === own.line,
      );
      if ((own === undefined) !== (ownClaim === undefined))
        throw new Error(`planChallenges gave ${challenger} the wrong own claim`);
      const verdict =
        challengers === "exists-only" || ownClaim === undefined
          ? "confirm"
          : (ownClaim.finding as LabelledFinding).cluster === labelOf(fingerprint)
            ? "confirm"
            : "unsure";
      answers.push({ fingerprint, model: challenger, verdict, reason: "", checked: null });
    }
  }
  return applyChallenges(clusters, answers);
}
