import type { UnplacedFinding } from "../render/index.js";

/**
 * The findings a review body should list as not placeable inline: those not already listed
 * in an earlier round's review of the pull request (`RunStore.listedUnplaced`), each once.
 * A finding that cannot go inline stays unplaceable round after round; listing it in every
 * review would repeat what the PR's page already shows, and it stays in the consensus comment.
 * Pure: the caller records the ones it lists (`RunStore.saveListedUnplaced`) once the review
 * is posted.
 */
export function unplacedToList(
  unplaced: readonly UnplacedFinding[],
  alreadyListed: ReadonlySet<string>,
): UnplacedFinding[] {
  const seen = new Set(alreadyListed);
  const listed: UnplacedFinding[] = [];
  for (const finding of unplaced) {
    if (seen.has(finding.cluster.fingerprint)) continue;
    seen.add(finding.cluster.fingerprint);
    listed.push(finding);
  }
  return listed;
}
