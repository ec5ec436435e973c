/**
 * Token buckets by key (one per GitHub installation for the write budget): `capacity` tokens
 * at most, refilled at `perMinute` by the time elapsed. A take succeeds only when at least
 * `need` tokens are there (`need` above 1 keeps a reserve for other takers) and then removes
 * one. Two twins: one process's (`InMemoryTokenBuckets`) and every process's of a deployment
 * (`PostgresTokenBuckets`, migration 10).
 */
export interface TokenBuckets {
  /** `now` in epoch milliseconds, from the caller's clock. */
  take(key: string, need: number, now: number): Promise<BucketTake>;
}

export interface TokenBucketShape {
  /** The most tokens a bucket holds: the burst allowed after a quiet spell. */
  capacity: number;
  /** Tokens added a minute: the sustained rate. */
  perMinute: number;
}

export interface BucketTake {
  granted: boolean;
  /** Tokens left after the take (or there, when refused). */
  tokens: number;
}

/** The level of a bucket last left at `tokens` at `since`, at `now` (a clock running back adds nothing). */
export function refilledLevel(
  shape: TokenBucketShape,
  tokens: number,
  since: number,
  now: number,
): number {
  return Math.min(shape.capacity, tokens + (Math.max(0, now - since) * shape.perMinute) / 60_000);
}
