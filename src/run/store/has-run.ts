/**
 * Whether a round ran: claimed by a worker at least once other than the claims `hold` handed
 * back (a reader limit applied again at the claim). What the reader limits count as spent.
 */
export function hasRun(round: { leaseEpoch: number; holds: number }): boolean {
  return round.leaseEpoch > round.holds;
}
