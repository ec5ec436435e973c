import type pg from "pg";
import type { BucketTake, TokenBucketShape, TokenBuckets } from "./token-buckets.js";

export interface PostgresTokenBucketsOptions extends TokenBucketShape {
  /** A pool on the run store's database (migration 10 created `token_buckets`). */
  pool: pg.Pool;
}

/*
 * One statement per take: the row is locked, refilled by the time elapsed since it was last
 * touched and, when it holds `need`, one token is removed; the lock is held only for that
 * statement, so concurrent takers queue on the row and each sees the one before it.
 * $1 bucket, $2 capacity, $3 tokens a minute, $4 now (epoch ms), $5 need.
 */
const TAKE = `
  WITH bucket AS (
    SELECT bucket,
      LEAST($2::float8, tokens + GREATEST(0, $4::bigint - refilled_at) * $3::float8 / 60000) AS level,
      GREATEST(refilled_at, $4::bigint) AS at
    FROM token_buckets WHERE bucket = $1
    FOR UPDATE
  )
  UPDATE token_buckets AS t
  SET tokens = bucket.level - CASE WHEN bucket.level >= $5::float8 THEN 1 ELSE 0 END,
      refilled_at = bucket.at
  FROM bucket WHERE t.bucket = bucket.bucket
  RETURNING t.tokens, bucket.level >= $5::float8 AS granted`;
const CREATE = `
  INSERT INTO token_buckets (bucket, tokens, refilled_at) VALUES ($1, $2, $3)
  ON CONFLICT (bucket) DO NOTHING`;

/**
 * The buckets every process of a deployment shares: one row per key in PostgreSQL, changed
 * by one atomic statement, so no two processes ever take the same token. Time is the callers'
 * (their injected clocks): a refill never counts time twice, since a row's time only moves
 * forward, and processes' clocks skewed by δ can over-grant at most δ's worth of tokens.
 */
export class PostgresTokenBuckets implements TokenBuckets {
  private readonly options: PostgresTokenBucketsOptions;

  constructor(options: PostgresTokenBucketsOptions) {
    this.options = options;
  }

  async take(key: string, need: number, now: number): Promise<BucketTake> {
    const { pool, capacity, perMinute } = this.options;
    const values = [key, capacity, perMinute, Math.trunc(now), need];
    let { rows } = await pool.query<BucketTake>(TAKE, values);
    if (rows[0] === undefined) {
      // A key never seen: its bucket starts full (a race here leaves the first row).
      await pool.query(CREATE, [key, capacity, Math.trunc(now)]);
      ({ rows } = await pool.query<BucketTake>(TAKE, values));
    }
    const row = rows[0];
    if (row === undefined) throw new Error(`the token bucket ${key} could not be created`);
    return { granted: row.granted, tokens: Number(row.tokens) };
  }
}
