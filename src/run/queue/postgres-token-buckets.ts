import type pg from "pg";
import {
  assertTakeable,
  type BucketRequest,
  type BucketTake,
  type TokenBuckets,
} from "./token-buckets.js";

/*
 * One statement per take: the rows are locked in key order (two takers of the same keys queue
 * on the first, so they cannot deadlock), each refilled by the time elapsed since it was last
 * touched with its own shape and, only when every one holds its `need`, one token is removed
 * from each. The locks are held only for that statement, so concurrent takers each see the
 * one before them. A missing row makes the take refused (`count` short): the caller creates it.
 * $1 buckets, $2 capacities, $3 tokens a minute, $4 needs (arrays, one order), $5 now (epoch ms).
 */
const TAKE = `
  WITH wanted AS (
    SELECT * FROM unnest($1::text[], $2::float8[], $3::float8[], $4::float8[])
      AS w(bucket, capacity, per_minute, need)
  ),
  locked AS MATERIALIZED (
    SELECT bucket, tokens, refilled_at FROM token_buckets
    WHERE bucket = ANY($1::text[])
    ORDER BY bucket
    FOR UPDATE
  ),
  levels AS MATERIALIZED (
    SELECT locked.bucket, wanted.need,
      LEAST(wanted.capacity,
        locked.tokens + GREATEST(0, $5::bigint - locked.refilled_at) * wanted.per_minute / 60000
      ) AS level,
      GREATEST(locked.refilled_at, $5::bigint) AS at
    FROM locked JOIN wanted USING (bucket)
  ),
  verdict AS MATERIALIZED (
    SELECT count(*) = cardinality($1::text[]) AND coalesce(bool_and(level >= need), false)
      AS granted
    FROM levels
  )
  UPDATE token_buckets AS t
  SET tokens = levels.level - CASE WHEN verdict.granted THEN 1 ELSE 0 END,
      refilled_at = levels.at
  FROM levels CROSS JOIN verdict
  WHERE t.bucket = levels.bucket
  RETURNING t.bucket, t.tokens, verdict.granted`;
/* New buckets start full; inserted in key order, so two creators of the same keys cannot deadlock. */
const CREATE = `
  INSERT INTO token_buckets (bucket, tokens, refilled_at)
  SELECT bucket, capacity, $3::bigint FROM unnest($1::text[], $2::float8[]) AS n(bucket, capacity)
  ORDER BY bucket
  ON CONFLICT (bucket) DO NOTHING`;

interface TakeRow {
  bucket: string;
  tokens: number;
  granted: boolean;
}

/**
 * The buckets every process of a deployment shares: one row per key in PostgreSQL, changed
 * by one atomic statement per take, so no two processes ever take the same token and a take
 * removes one from every bucket it names or from none. Time is the callers' (their injected
 * clocks): a refill never counts time twice, since a row's time only moves forward, and
 * processes' clocks skewed by δ can over-grant at most δ's worth of tokens.
 */
export class PostgresTokenBuckets implements TokenBuckets {
  private readonly pool: pg.Pool;

  /** `pool`: on the run store's database (migration 10 created `token_buckets`). */
  constructor(pool: pg.Pool) {
    this.pool = pool;
  }

  async take(requests: readonly BucketRequest[], now: number): Promise<BucketTake> {
    assertTakeable(requests);
    const at = Math.trunc(now);
    const keys = requests.map((request) => request.key);
    const values = [
      keys,
      requests.map((request) => request.shape.capacity),
      requests.map((request) => request.shape.perMinute),
      requests.map((request) => request.need),
      at,
    ];
    let { rows } = await this.pool.query<TakeRow>(TAKE, values);
    if (rows.length < requests.length) {
      // Keys never seen: their buckets start full (a race here leaves the first row).
      const missing = requests.filter((request) => !rows.some((row) => row.bucket === request.key));
      await this.pool.query(CREATE, [
        missing.map((request) => request.key),
        missing.map((request) => request.shape.capacity),
        at,
      ]);
      ({ rows } = await this.pool.query<TakeRow>(TAKE, values));
    }
    const tokens = keys.map((key) => {
      const row = rows.find((candidate) => candidate.bucket === key);
      if (row === undefined) throw new Error(`the token bucket ${key} could not be created`);
      return Number(row.tokens);
    });
    return { granted: rows[0]?.granted ?? false, tokens };
  }
}
