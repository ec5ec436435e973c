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
