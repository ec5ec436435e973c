/**
 * Token buckets by key (GitHub's write budget: a minute's and an hour's per installation):
 * each holds `capacity` tokens at most, refilled at `perMinute` by the time elapsed. A take
 * asks several buckets at once and succeeds only when every one holds its `need` (a `need`
 * above 1 keeps a reserve for other takers); then one token is removed from each, and from
 * none otherwise. Two twins: one process's (`InMemoryTokenBuckets`) and every process's of a
 * deployment (`PostgresTokenBuckets`, migration 10).
 */
export interface TokenBuckets {
  /** `requests` with distinct keys; `now` in epoch milliseconds, from the caller's clock. */
  take(requests: readonly BucketRequest[], now: number): Promise<BucketTake>;
}

export interface TokenBucketShape {
  /** The most tokens a bucket holds: the burst allowed after a quiet spell. */
  capacity: number;
  /** Tokens added a minute: the sustained rate (a fraction is fine: 400 an hour). */
  perMinute: number;
}

/** One bucket a take needs: a key never seen starts full, at its shape's capacity. */
export interface BucketRequest {
  key: string;
  shape: TokenBucketShape;
  /** The tokens the bucket must hold for the take to be granted (one is removed). */
  need: number;
}

export interface BucketTake {
  granted: boolean;
  /** Each bucket's tokens after the take (or there, when refused), in the requests' order. */
  tokens: number[];
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

/** Throws on a take of no bucket, or naming one twice (which need would hold is not clear). */
export function assertTakeable(requests: readonly BucketRequest[]): void {
  const keys = new Set(requests.map((request) => request.key));
  if (keys.size === 0 || keys.size !== requests.length) {
    throw new Error(`a token bucket take needs distinct buckets: [${requests.map((r) => r.key)}]`);
  }
}
