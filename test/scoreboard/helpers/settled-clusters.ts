import type { Finding } from "../../../src/consensus/finding.js";
import {
  agreementOf,
  applyChallenges,
  type ChallengeResult,
  type Cluster,
} from "../../../src/consensus/index.js";

const finding = (model: string, line: number, title: string): Finding => ({
  file: "src/a.ts",
  line,
  endLine: line,
  severity: "medium",
  confidence: "high",
  title,
  body: `${title}, as ${model} tells it`,
  model,
  lens: "correctness",
});

const cluster = (fingerprint: string, members: Finding[], unsure: boolean): Cluster => {
  const [representative] = members as [Finding, ...Finding[]];
  return {
    fingerprint,
    findings: members,
    models: [...new Set(members.map((member) => member.model))],
    representative,
    severity: "medium",
    ...(unsure ? { unsure: true as const } : {}),
  };
};

const answer = (
  fingerprint: string,
  model: string,
  verdict: ChallengeResult["verdict"],
): ChallengeResult => ({ fingerprint, model, verdict, reason: "checked", checked: "src/a.ts:1" });

/**
 * One round's clusters as the consensus publishes them, after cross-examination, for alpha,
 * beta and gamma: a sure merge (alpha, beta); a weak merge nobody answered (alpha, gamma);
 * a weak merge whose two claims confirmed each other (beta, gamma); a weak merge whose claims
 * refuted each other (alpha, beta: two lone disputed rows); a lone finding of gamma that alpha
 * confirmed. By hand, the findings agreed as the consensus counts them: alpha 1 (the sure
 * merge), beta 2 (the sure merge, the confirmed weak merge), gamma 2 (the confirmed weak merge,
 * its confirmed lone finding). Counted as "two models in a cluster", alpha would have 3, gamma 2
 * and beta 3.
 */
export function settledClusters(): { clusters: Cluster[]; answers: ChallengeResult[] } {
  const raw = [
    cluster(
      "fp-sure",
      [finding("alpha", 10, "Off by one"), finding("beta", 10, "Off by one")],
      false,
    ),
    cluster(
      "fp-weak",
      [finding("alpha", 20, "Cache key ignores tenant"), finding("gamma", 21, "Stale read")],
      true,
    ),
    cluster(
      "fp-settled",
      [finding("beta", 30, "Lock not released"), finding("gamma", 30, "Mutex held on error")],
      true,
    ),
    cluster(
      "fp-split",
      [finding("alpha", 40, "Unchecked cast"), finding("beta", 41, "Missing await")],
      true,
    ),
    cluster("fp-lone", [finding("gamma", 50, "Timeout never cleared")], false),
  ];
  const answers = [
    answer("fp-settled", "gamma", "confirm"),
    answer("fp-settled~1", "beta", "confirm"),
    answer("fp-split", "beta", "refute"),
    answer("fp-split~1", "alpha", "refute"),
    answer("fp-lone", "alpha", "confirm"),
  ];
  return { clusters: applyChallenges(raw, answers), answers };
}

/** Per model, the published clusters it reported that count as agreed (as consensus-view does). */
export function agreedByModel(clusters: readonly Cluster[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const each of clusters) {
    if (each.disputed === true || agreementOf(each) < 2) continue;
    for (const model of each.models) counts[model] = (counts[model] ?? 0) + 1;
  }
  return counts;
}
