import {
  assertTakeable,
  type BucketRequest,
  type BucketTake,
  refilledLevel,
  type TokenBuckets,
} from "./token-buckets.js";

/** The buckets of one process (SQLite mode): a full bucket for a key not seen before. */
export class InMemoryTokenBuckets implements TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  // No await between reading and writing the buckets: a take is atomic in this process.
  async take(requests: readonly BucketRequest[], now: number): Promise<BucketTake> {
    assertTakeable(requests);
    const levels = requests.map(({ key, shape }) => {
      const bucket = this.buckets.get(key) ?? { tokens: shape.capacity, at: now };
      return { level: refilledLevel(shape, bucket.tokens, bucket.at, now), at: bucket.at };
    });
    const granted = requests.every((request, index) => (levels[index]?.level ?? 0) >= request.need);
    const tokens = levels.map(({ level }) => (granted ? level - 1 : level));
    requests.forEach((request, index) => {
      const at = Math.max(levels[index]?.at ?? now, now);
      this.buckets.set(request.key, { tokens: tokens[index] ?? 0, at });
    });
    return { granted, tokens };
  }
}
