import { agreementOf } from "./apply-challenges.js";
import type { Cluster } from "./cluster.js";
import type { Consensus, HeldBackFinding } from "./consensus.js";
import { type DismissalSubject, matchesDismissal } from "./match-dismissal.js";

/** A dismissal in another pull request of the repository, with what the listing says of it. */
export interface RepositoryDismissal extends DismissalSubject {
  pullNumber: number;
  actor: string;
  kind: "dismiss" | "false_positive";
}

/** What people decided about findings, as the round publishes them. */
export interface Dismissals {
  /** This pull request's findings dismissed (and not undismissed since), by fingerprint. */
  here: ReadonlyMap<string, NonNullable<Cluster["dismissed"]>>;
  /**
   * Findings dismissed in the repository's other pull requests, when it opted in with
   * `learn: repo`; empty otherwise.
   */
  elsewhere: readonly RepositoryDismissal[];
}

/**
 * Marks the clusters dismissed on this pull request (they stay in the consensus, "dismissed by
 * @user", and never go inline again) and leaves out those matching a dismissal elsewhere in the
 * repository, listing each with the dismissal it matched (`heldBack`). A high-severity finding
 * and one more than one model stands behind are never held back: one person's dismissal on
 * another PR, perhaps of a finding baited for it, does not outweigh them. Pure; the same
 * consensus when nothing applies.
 */
export function applyDismissals(consensus: Consensus, dismissals: Dismissals): Consensus {
  if (dismissals.here.size === 0 && dismissals.elsewhere.length === 0) return consensus;
  const heldBack = new Map<string, HeldBackFinding>();
  const mark = (cluster: Cluster): Cluster => {
    const dismissed = dismissals.here.get(cluster.fingerprint);
    return dismissed === undefined ? cluster : { ...cluster, dismissed };
  };
  const keep = (cluster: Cluster): boolean => {
    if (dismissals.here.has(cluster.fingerprint)) return true;
    if (cluster.severity === "high" || agreementOf(cluster) >= 2) return true;
    const { representative } = cluster;
    const subject: DismissalSubject = {
      file: representative.file,
      title: representative.title,
      line: representative.line,
      endLine: representative.endLine,
      context: cluster.context,
    };
    const matched = dismissals.elsewhere.find((dismissed) => matchesDismissal(subject, dismissed));
    if (matched === undefined) return true;
    heldBack.set(cluster.fingerprint, {
      fingerprint: cluster.fingerprint,
      title: representative.title,
      file: representative.file,
      line: representative.line,
      severity: cluster.severity,
      model: representative.model,
      dismissal: {
        pullNumber: matched.pullNumber,
        actor: matched.actor,
        kind: matched.kind,
        title: matched.title,
        file: matched.file,
        line: matched.line,
      },
    });
    return false;
  };
  const clusters = consensus.clusters.filter(keep).map(mark);
  const comparison =
    consensus.comparison === null
      ? null
      : {
          ...consensus.comparison,
          fresh: consensus.comparison.fresh.filter(keep).map(mark),
          stillOpen: consensus.comparison.stillOpen.filter(keep).map(mark),
        };
  return {
    ...consensus,
    clusters,
    comparison,
    ...(heldBack.size === 0
      ? {}
      : { heldBackByDismissals: heldBack.size, heldBack: [...heldBack.values()] }),
  };
}
