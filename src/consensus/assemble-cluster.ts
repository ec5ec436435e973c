import type { Severity } from "../findings/index.js";
import { CONFIDENCE_RANK, SEVERITY_RANK } from "../findings/index.js";
import type { Cluster } from "./cluster.js";
import type { FindingTextCache } from "./finding-text-cache.js";
import { fingerprint } from "./fingerprint.js";
import type { PreparedFinding } from "./prepared-finding.js";

/** Highest confidence, then highest severity, then configured model order, then canonical order. */
function representativeOrder(a: PreparedFinding, b: PreparedFinding): number {
  return (
    CONFIDENCE_RANK[b.finding.confidence] - CONFIDENCE_RANK[a.finding.confidence] ||
    SEVERITY_RANK[b.finding.severity] - SEVERITY_RANK[a.finding.severity] ||
    a.modelRank - b.modelRank ||
    a.index - b.index
  );
}

/** Members after the representative: by model order, then as representatives are chosen. */
function memberOrder(a: PreparedFinding, b: PreparedFinding): number {
  return a.modelRank - b.modelRank || representativeOrder(a, b);
}

/**
 * The most common severity, one vote per model (agreement counts models, not findings): a
 * model votes with its own best finding, chosen as representatives are. Ties go to the lower.
 */
function clusterSeverity(ordered: readonly PreparedFinding[]): Severity {
  const votes = new Map<string, Severity>();
  for (const member of [...ordered].sort(representativeOrder)) {
    if (!votes.has(member.finding.model)) {
      votes.set(member.finding.model, member.finding.severity);
    }
  }
  const counts = new Map<Severity, number>();
  for (const severity of votes.values()) {
    counts.set(severity, (counts.get(severity) ?? 0) + 1);
  }
  let best: Severity = "nit";
  let bestCount = 0;
  for (const [severity, count] of counts) {
    const lower = SEVERITY_RANK[severity] < SEVERITY_RANK[best];
    if (count > bestCount || (count === bestCount && lower)) {
      best = severity;
      bestCount = count;
    }
  }
  return best;
}

/**
 * Builds a cluster from its members (at least one); its fingerprint may be suffixed later.
 * `weak`: its models were linked on weak evidence, so their agreement is unsure until
 * cross-examination confirms it.
 */
export function assembleCluster(
  members: readonly PreparedFinding[],
  texts?: FindingTextCache,
  weak = false,
): Cluster {
  const [representative, ...rest] = [...members].sort(representativeOrder);
  if (representative === undefined) {
    throw new Error("assembleCluster needs at least one member");
  }
  rest.sort(memberOrder);
  const models: string[] = [];
  for (const member of [...members].sort(memberOrder)) {
    if (!models.includes(member.finding.model)) {
      models.push(member.finding.model);
    }
  }
  return {
    fingerprint: fingerprint(
      representative.finding.file,
      representative.finding.title,
      texts?.titleTokens(representative.finding.title),
    ),
    findings: [representative.finding, ...rest.map((member) => member.finding)],
    models,
    representative: representative.finding,
    severity: clusterSeverity(members),
    ...(weak && models.length > 1 ? { unsure: true as const } : {}),
  };
}
