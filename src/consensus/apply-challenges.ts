import { SEVERITY_RANK, type Severity } from "../findings/index.js";
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

/** The most common severity among claims, one per model; ties go to the lower. */
function claimSeverity(claims: readonly Claim[]): Severity {
  const counts = new Map<Severity, number>();
  for (const claim of claims) {
    counts.set(claim.finding.severity, (counts.get(claim.finding.severity) ?? 0) + 1);
  }
  let best: Severity = "nit";
  let bestCount = 0;
  for (const [severity, count] of counts) {
    if (
      count > bestCount ||
      (count === bestCount && SEVERITY_RANK[severity] < SEVERITY_RANK[best])
    ) {
      best = severity;
      bestCount = count;
    }
  }
  return best;
}

/** A cluster of some of an unsure cluster's claims: their models' findings, the first its representative. */
function clusterOfClaims(cluster: Cluster, claims: readonly Claim[]): Cluster {
  const [representative] = [
    ...claims.filter((claim) => claim.fingerprint === cluster.fingerprint),
    ...claims,
  ];
  if (representative === undefined) throw new Error("clusterOfClaims needs a claim");
  const models = claims.map((claim) => claim.model);
  return {
    fingerprint: representative.fingerprint,
    findings: [
      representative.finding,
      ...cluster.findings.filter(
        (finding) => models.includes(finding.model) && finding !== representative.finding,
      ),
    ],
    models: cluster.models.filter((model) => models.includes(model)),
    representative: representative.finding,
    severity: claimSeverity(claims),
    ...(cluster.carried === undefined ? {} : { carried: cluster.carried }),
  };
}

/**
 * An unsure cluster once its claims were answered. The claims each confirmed by another of
 * them stay together as one agreed cluster (found by dropping, until none is left to drop, a
 * claim no remaining member confirmed); every other claim becomes a cluster of its own, judged
 * on its own answers. So a false finding can neither ride on a true neighbour's agreement nor
 * sink it, and a true problem two models reported stays one row. A member's answer is to
 * "is this the same defect as your own claim?" (planChallenges gives it its own claim), so
 * two real but different problems, each of which exists, are not joined by confirmations
 * that they exist; another model's confirmation counts as agreement, never as a join.
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
  let kept = claims;
  for (;;) {
    const members = kept.map(({ claim }) => claim.model);
    const next = kept.filter(({ answers }) =>
      answers.some((answer) => answer.verdict === "confirm" && members.includes(answer.model)),
    );
    if (next.length === kept.length) break;
    kept = next;
  }
  const apart = claims.filter((entry) => !kept.includes(entry));
  const together: Cluster[] = [];
  if (kept.length >= 2) {
    const agreed = clusterOfClaims(
      cluster,
      kept.map(({ claim }) => claim),
    );
    const members = agreed.models;
    const head = kept.find(({ claim }) => claim.fingerprint === agreed.fingerprint);
    together.push(
      withAnswers(
        agreed,
        (head?.answers ?? []).filter((answer) => !members.includes(answer.model)),
      ),
    );
  } else {
    apart.unshift(...kept);
  }
  const alone = apart
    .sort((a, b) => claims.indexOf(a) - claims.indexOf(b))
    .map(({ claim, answers }) => withAnswers(clusterOfClaims(cluster, [claim]), answers));
  return [...together, ...alone];
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
