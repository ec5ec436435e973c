import {
  type BucketTake,
  refilledLevel,
  type TokenBucketShape,
  type TokenBuckets,
} from "./token-buckets.js";

/** The buckets of one process (SQLite mode): a full bucket for a key not seen before. */
export class InMemoryTokenBuckets implements TokenBuckets {
  private readonly shape: TokenBucketShape;
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(shape: TokenBucketShape) {
    this.shape = shape;
  }

  async take(key: string, need: number, now: number): Promise<BucketTake> {
    const bucket = this.buckets.get(key) ?? { tokens: this.shape.capacity, at: now };
    const level = refilledLevel(this.shape, bucket.tokens, bucket.at, now);
    const granted = level >= need;
    const tokens = granted ? level - 1 : level;
    this.buckets.set(key, { tokens, at: Math.max(bucket.at, now) });
    return { granted, tokens };
  }
}
