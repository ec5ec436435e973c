import type { Cluster } from "./cluster.js";
import type { Consensus } from "./consensus.js";
import { type DismissalSubject, matchesDismissal } from "./match-dismissal.js";

/** What people decided about findings, as the round publishes them. */
export interface Dismissals {
  /** This pull request's findings dismissed (and not undismissed since), by fingerprint. */
  here: ReadonlyMap<string, NonNullable<Cluster["dismissed"]>>;
  /**
   * Findings dismissed in the repository's other pull requests, when it opted in with
   * `learn: repo`; empty otherwise.
   */
  elsewhere: readonly DismissalSubject[];
}

/**
 * Marks the clusters dismissed on this pull request (they stay in the consensus, "dismissed by
 * @user", and never go inline again) and leaves out those matching a dismissal elsewhere in the
 * repository, counting them (`heldBackByDismissals`). Pure; the same consensus when nothing
 * applies.
 */
export function applyDismissals(consensus: Consensus, dismissals: Dismissals): Consensus {
  if (dismissals.here.size === 0 && dismissals.elsewhere.length === 0) return consensus;
  const heldBack = new Set<string>();
  const mark = (cluster: Cluster): Cluster => {
    const dismissed = dismissals.here.get(cluster.fingerprint);
    return dismissed === undefined ? cluster : { ...cluster, dismissed };
  };
  const keep = (cluster: Cluster): boolean => {
    if (dismissals.here.has(cluster.fingerprint)) return true;
    const subject = { file: cluster.representative.file, title: cluster.representative.title };
    if (!dismissals.elsewhere.some((dismissed) => matchesDismissal(subject, dismissed))) {
      return true;
    }
    heldBack.add(cluster.fingerprint);
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
    ...(heldBack.size === 0 ? {} : { heldBackByDismissals: heldBack.size }),
  };
}
