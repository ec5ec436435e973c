import type { Cluster } from "./cluster.js";

/** One answered cross-examination of a cluster: another model tested its finding. */
export interface ChallengeResult {
  /** The cluster challenged (fingerprints are stable, so a resumed round finds it again). */
  fingerprint: string;
  /** The challenging model: never one that reported the cluster. */
  model: string;
  verdict: "confirm" | "refute" | "unsure";
  /** The challenger's evidence, untrusted model text. */
  reason: string;
  /** `path:line` it checked, or null. */
  checked: string | null;
}

/**
 * The models that stand behind a cluster's claim without being asked: all that reported it,
 * or, when it is `unsure` (merged on weak evidence), only its representative's.
 */
export function claimants(cluster: Cluster): string[] {
  return cluster.unsure === true ? [cluster.representative.model] : cluster.models;
}

/**
 * The clusters with their cross-examination folded in. A confirmation is agreement: the
 * challenger joins `confirmedBy` (never twice, never a claimant: for an `unsure` cluster the
 * other models in it may confirm the representative's claim, which is what makes it agreed).
 * A cluster refuted by a majority of the models that answered its challenge is `disputed`.
 * Unsure answers count neither way. Clusters nobody challenged are returned unchanged.
 */
export function applyChallenges(
  clusters: readonly Cluster[],
  challenges: readonly ChallengeResult[],
): Cluster[] {
  const byFingerprint = new Map<string, ChallengeResult[]>();
  for (const challenge of challenges) {
    byFingerprint.set(challenge.fingerprint, [
      ...(byFingerprint.get(challenge.fingerprint) ?? []),
      challenge,
    ]);
  }
  return clusters.map((cluster) => {
    const voters = claimants(cluster);
    const answers = (byFingerprint.get(cluster.fingerprint) ?? []).filter(
      // A model that stands behind the claim cannot vote on it again.
      (answer) => !voters.includes(answer.model),
    );
    if (answers.length === 0) return cluster;
    const latest = new Map(answers.map((answer) => [answer.model, answer]));
    const distinct = [...latest.values()];
    const confirmedBy = distinct
      .filter((answer) => answer.verdict === "confirm")
      .map((answer) => answer.model);
    const refuting = distinct.filter((answer) => answer.verdict === "refute").length;
    return {
      ...cluster,
      challenges: distinct,
      confirmedBy,
      disputed: refuting * 2 > distinct.length,
    };
  });
}

/**
 * How many models agree on a cluster: those that reported it and those that confirmed it. A
 * weak merge is not agreement: an `unsure` cluster counts its representative's model and its
 * confirmations only.
 */
export function agreementOf(cluster: Cluster): number {
  return claimants(cluster).length + (cluster.confirmedBy?.length ?? 0);
}
