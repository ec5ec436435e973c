import { type Claim, claimsOf } from "./claims-of.js";
import type { Cluster } from "./cluster.js";

/** One answered cross-examination of a cluster: another model tested its finding. */
export interface ChallengeResult {
  /** The claim challenged (see claims-of.ts; fingerprints are stable, so a resumed round finds it again). */
  fingerprint: string;
  /** The challenging model: never the one that made the claim. */
  model: string;
  verdict: "confirm" | "refute" | "unsure";
  /** The challenger's evidence, untrusted model text. */
  reason: string;
  /** `path:line` it checked, or null. */
  checked: string | null;
}

/** The latest answer of each model on a claim, the claimant's own left out. */
function answersTo(
  claim: Pick<Claim, "fingerprint" | "model">,
  byFingerprint: ReadonlyMap<string, readonly ChallengeResult[]>,
  excluded: readonly string[],
): ChallengeResult[] {
  const answers = (byFingerprint.get(claim.fingerprint) ?? []).filter(
    (answer) => answer.model !== claim.model && !excluded.includes(answer.model),
  );
  return [...new Map(answers.map((answer) => [answer.model, answer])).values()];
}

/** A cluster with its answers folded in: confirmations are agreement, a refuting majority disputes. */
function withAnswers(cluster: Cluster, answers: readonly ChallengeResult[]): Cluster {
  if (answers.length === 0) return cluster;
  const refuting = answers.filter((answer) => answer.verdict === "refute").length;
  return {
    ...cluster,
    challenges: [...answers],
    confirmedBy: answers.filter((answer) => answer.verdict === "confirm").map((a) => a.model),
    disputed: refuting * 2 > answers.length,
  };
}

/**
 * An unsure cluster once its claims were answered. When every member model's claim was
 * confirmed by another member, the merge was right: one agreed cluster. Otherwise the text
 * put different claims together: each model's findings become a cluster of their own, judged
 * on their own answers (a refuted one disputed, a confirmed one agreed), so a false finding
 * cannot ride on a true neighbour's agreement nor sink it.
 */
function settleUnsure(
  cluster: Cluster,
  byFingerprint: ReadonlyMap<string, readonly ChallengeResult[]>,
): Cluster[] {
  const claims = claimsOf(cluster).map((claim) => ({
    claim,
    answers: answersTo(claim, byFingerprint, []),
  }));
  if (claims.every(({ answers }) => answers.length === 0)) return [cluster];
  const confirmedByMember = ({ answers }: (typeof claims)[number]) =>
    answers.some((answer) => answer.verdict === "confirm" && cluster.models.includes(answer.model));
  if (claims.every(confirmedByMember)) {
    const { unsure: _unsure, ...agreed } = cluster;
    const outside = claims[0]?.answers.filter((answer) => !cluster.models.includes(answer.model));
    return [withAnswers(agreed, outside ?? [])];
  }
  return claims.map(({ claim, answers }) =>
    withAnswers(
      {
        fingerprint: claim.fingerprint,
        findings: [
          claim.finding,
          ...cluster.findings.filter((f) => f.model === claim.model && f !== claim.finding),
        ],
        models: [claim.model],
        representative: claim.finding,
        severity: claim.finding.severity,
        ...(cluster.carried === undefined ? {} : { carried: cluster.carried }),
      },
      answers,
    ),
  );
}

/**
 * The clusters with their cross-examination folded in. A confirmation is agreement: the
 * challenger joins `confirmedBy` (never twice, never a model that reported the cluster).
 * A cluster refuted by a majority of the models that answered its challenge is `disputed`.
 * Unsure answers count neither way. An `unsure` cluster is settled claim by claim
 * (`settleUnsure`). Clusters nobody challenged are returned unchanged.
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
  return clusters.flatMap((cluster) => {
    if (cluster.unsure === true) return settleUnsure(cluster, byFingerprint);
    // A model that reported the cluster cannot vote on it again.
    const answers = answersTo(
      { fingerprint: cluster.fingerprint, model: cluster.representative.model },
      byFingerprint,
      cluster.models,
    );
    return [withAnswers(cluster, answers)];
  });
}

/**
 * How many models agree on a cluster: those that reported it and those that confirmed it. A
 * weak merge is not agreement: an `unsure` cluster counts one model until cross-examination
 * settles it.
 */
export function agreementOf(cluster: Cluster): number {
  return (cluster.unsure === true ? 1 : cluster.models.length) + (cluster.confirmedBy?.length ?? 0);
}
