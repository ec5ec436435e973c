/**
 * The fairness rule, shared by both queues: a job's priority is minus the
 * number of jobs its installation already has queued or running. Taken by
 * priority, then oldest first, an installation's n-th waiting job goes after
 * every other installation's (n-1)-th: round-robin across installations,
 * with no per-installation bookkeeping beyond one count at enqueue time.
 */
export function fairPriority(installationBacklog: number): number {
  return -Math.max(0, Math.trunc(installationBacklog));
}

/**
 * A wake-up's priority: a round taken up again (its holder crashed or handed it back) goes ahead
 * of every fresh one, since it already had its turn and holds lenses paid for; the others by the
 * fairness rule. Resumed rounds are bounded by the rounds that were running, so they cannot
 * starve the rest.
 */
export function wakePriority(installationBacklog: number, resume: boolean): number {
  return resume ? 1 : fairPriority(installationBacklog);
}
