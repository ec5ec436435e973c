import type { Cluster, Consensus } from "../../consensus/index.js";
import { codeContext } from "../../run/index.js";

/**
 * The consensus with each cluster's code context read from the head's tree (codeContext): what a
 * repository-level dismissal is matched by, and saved with the finding for later rounds to match.
 */
export async function withCodeContexts(
  consensus: Consensus,
  workspaceDir: string,
): Promise<Consensus> {
  const contexts = new Map<string, string>();
  const all = [
    ...consensus.clusters,
    ...(consensus.comparison?.fresh ?? []),
    ...(consensus.comparison?.stillOpen ?? []),
  ];
  for (const cluster of all) {
    if (contexts.has(cluster.fingerprint)) continue;
    const { file, line, endLine } = cluster.representative;
    const context = await codeContext(workspaceDir, file, line, endLine);
    if (context !== null) contexts.set(cluster.fingerprint, context);
  }
  const add = (cluster: Cluster): Cluster => {
    const context = contexts.get(cluster.fingerprint);
    return context === undefined ? cluster : { ...cluster, context };
  };
  return {
    ...consensus,
    clusters: consensus.clusters.map(add),
    comparison:
      consensus.comparison === null
        ? null
        : {
            ...consensus.comparison,
            fresh: consensus.comparison.fresh.map(add),
            stillOpen: consensus.comparison.stillOpen.map(add),
          },
  };
}
