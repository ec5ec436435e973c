import { assembleCluster } from "./assemble-cluster.js";
import { canonicalOrder } from "./canonical-order.js";
import type { Cluster } from "./cluster.js";
import type { Finding } from "./finding.js";
import { FindingTextCache } from "./finding-text-cache.js";
import { linkFindings, STRONG_THRESHOLD } from "./link-findings.js";
import { modelRanking } from "./model-ranking.js";
import { prepareFinding } from "./prepared-finding.js";
import { rankClusters } from "./rank-clusters.js";

export interface ClusterOptions {
  /** The configured model order: orders `models` and breaks representative ties. */
  modelOrder?: readonly string[];
}

/** Runs of consecutive findings with the same file (the input is in canonical order). */
function fileBlocks(sorted: readonly Finding[]): Finding[][] {
  const blocks: Finding[][] = [];
  let current: Finding[] = [];
  for (const finding of sorted) {
    if (current.length > 0 && current[0]?.file !== finding.file) {
      blocks.push(current);
      current = [];
    }
    current.push(finding);
  }
  if (current.length > 0) {
    blocks.push(current);
  }
  return blocks;
}

/** Two clusters can name the same problem words in one file: suffix all but the first by place. */
function disambiguateFingerprints(clusters: Cluster[]): Cluster[] {
  const byPlace = [...clusters].sort(
    (a, b) =>
      a.representative.line - b.representative.line ||
      a.representative.endLine - b.representative.endLine ||
      canonicalOrder(a.representative, b.representative),
  );
  const seen = new Map<string, number>();
  const renamed = new Map<Cluster, Cluster>();
  for (const cluster of byPlace) {
    const count = (seen.get(cluster.fingerprint) ?? 0) + 1;
    seen.set(cluster.fingerprint, count);
    renamed.set(
      cluster,
      count === 1 ? cluster : { ...cluster, fingerprint: `${cluster.fingerprint}-${count}` },
    );
  }
  return clusters.map((cluster) => renamed.get(cluster) ?? cluster);
}

/**
 * Groups findings that describe the same problem at the same place, whichever model and lens
 * reported them, and ranks the groups. Deterministic: the result depends on the findings and
 * the model order, not on the order of the input. Work is blocked by file, and within a file
 * only findings whose lines lie close are compared.
 */
export function clusterFindings(
  findings: readonly Finding[],
  options: ClusterOptions = {},
): Cluster[] {
  const rankOf = modelRanking(
    options.modelOrder ?? [],
    findings.map((finding) => finding.model),
  );
  const texts = new FindingTextCache();
  const clusters: Cluster[] = [];
  let index = 0;
  // Each block is prepared only when its turn comes, so what comparing needs (profiles,
  // vectors) is garbage once the block is grouped: the live heap stays one block deep, and the
  // collector's work grows with the findings, not with their square.
  for (const findingsOfFile of fileBlocks([...findings].sort(canonicalOrder))) {
    const block = findingsOfFile.map((finding) => {
      const member = prepareFinding(finding, index, rankOf(finding.model), texts);
      index += 1;
      return member;
    });
    const fileClusters = linkFindings(block).map((group) =>
      assembleCluster(
        group.members.flatMap((position) => block[position] ?? []),
        texts,
        group.weakest < STRONG_THRESHOLD,
      ),
    );
    clusters.push(...disambiguateFingerprints(fileClusters));
  }
  return rankClusters(clusters);
}
