import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InMemoryTokenBuckets } from "../../../src/run/queue/in-memory-token-buckets.js";
import { PostgresTokenBuckets } from "../../../src/run/queue/postgres-token-buckets.js";
import type {
  BucketTake,
  TokenBucketShape,
  TokenBuckets,
} from "../../../src/run/queue/token-buckets.js";
import { createPostgresPool } from "../../../src/run/store/postgres-pool.js";
import { PostgresRunStore } from "../../../src/run/store/postgres-run-store.js";
import {
  postgresUnavailableReason,
  startTestPostgres,
  type TestPostgres,
} from "../../helpers/postgres-server.js";
import { peakInWindow } from "./helpers/peak-in-window.js";

/** GitHub's write budget's defaults: 60 a minute, bursts of 10. */
const SHAPE: TokenBucketShape = { capacity: 10, perMinute: 60 };
/** A small hourly bucket: 3 tokens, one back every 10 minutes. */
const HOUR: TokenBucketShape = { capacity: 3, perMinute: 0.1 };
const T0 = 1_750_000_000_000;

/** One bucket's take, as one bucket's level. */
async function takeOne(
  buckets: TokenBuckets,
  key: string,
  need: number,
  now: number,
): Promise<{ granted: boolean; tokens: number }> {
  const { granted, tokens } = await buckets.take([{ key, shape: SHAPE, need }], now);
  return { granted, tokens: tokens[0] ?? Number.NaN };
}

/** A write's take: the minute's bucket and the hour's, each with its need. */
function takeBoth(
  buckets: TokenBuckets,
  prefix: string,
  needs: { minute: number; hour: number },
  now: number,
): Promise<BucketTake> {
  return buckets.take(
    [
      { key: `${prefix}:minute`, shape: SHAPE, need: needs.minute },
      { key: `${prefix}:hour`, shape: HOUR, need: needs.hour },
    ],
    now,
  );
}

/** The same contract for one process's buckets and for PostgreSQL's. */
function bucketContract(name: string, open: () => TokenBuckets) {
  describe(`${name}: the token bucket contract`, () => {
    it("starts full, gives its burst at once, then refuses", async () => {
      const buckets = open();
      const takes = [];
      for (let index = 0; index < 11; index++) takes.push(await takeOne(buckets, "a", 1, T0));
      expect(takes.filter((take) => take.granted)).toHaveLength(10);
      expect(takes.at(-1)).toEqual({ granted: false, tokens: 0 });
    });

    it("refills by the time elapsed, never above its capacity", async () => {
      const buckets = open();
      for (let index = 0; index < 10; index++) await takeOne(buckets, "b", 1, T0);
      expect((await takeOne(buckets, "b", 1, T0 + 999)).granted).toBe(false);
      const after = await takeOne(buckets, "b", 1, T0 + 1_000);
      expect(after.granted).toBe(true);
      expect(after.tokens).toBeCloseTo(0, 6);
      const later = await takeOne(buckets, "b", 1, T0 + 3_600_000);
      expect(later).toEqual({ granted: true, tokens: 9 });
    });

    it("keeps a reserve from a taker that needs more than one token", async () => {
      const buckets = open();
      for (let index = 0; index < 7; index++) await takeOne(buckets, "c", 1, T0);
      expect(await takeOne(buckets, "c", 4, T0)).toEqual({ granted: false, tokens: 3 });
      expect(await takeOne(buckets, "c", 1, T0)).toEqual({ granted: true, tokens: 2 });
    });

    it("adds nothing for a clock running back, and keeps keys apart", async () => {
      const buckets = open();
      for (let index = 0; index < 10; index++) await takeOne(buckets, "d", 1, T0 + 5_000);
      expect((await takeOne(buckets, "d", 1, T0)).granted).toBe(false);
      expect((await takeOne(buckets, "d", 1, T0 + 5_500)).granted).toBe(false);
      expect((await takeOne(buckets, "e", 1, T0)).granted).toBe(true);
    });

    it("grants a take of two buckets only while both hold its need, and takes one from each", async () => {
      const buckets = open();
      const one = { minute: 1, hour: 1 };
      const takes = [];
      for (let index = 0; index < 4; index++) takes.push(await takeBoth(buckets, "f", one, T0));
      expect(takes.map((take) => take.granted)).toEqual([true, true, true, false]);
      // The hour ran out first: its refusal left the minute's bucket as it was.
      expect(takes.at(-1)).toEqual({ granted: false, tokens: [7, 0] });
      expect(await takeOne(buckets, "f:minute", 1, T0)).toEqual({ granted: true, tokens: 6 });
      // Ten minutes bring the hour one token back (and the minute's bucket refills to full).
      expect((await takeBoth(buckets, "f", one, T0 + 599_999)).granted).toBe(false);
      expect(await takeBoth(buckets, "f", one, T0 + 600_000)).toEqual({
        granted: true,
        tokens: [9, 0],
      });
    });

    it("takes nothing from either bucket when the other refuses, nor for a reserve kept", async () => {
      const buckets = open();
      // The minute's bucket cannot hold 11: the hour's keeps its 3.
      expect(await takeBoth(buckets, "g", { minute: 11, hour: 1 }, T0)).toEqual({
        granted: false,
        tokens: [10, 3],
      });
      // A board edit's reserve in the hour's bucket: 3 there, 4 needed; the minute's keeps 10.
      expect(await takeBoth(buckets, "g", { minute: 4, hour: 4 }, T0)).toEqual({
        granted: false,
        tokens: [10, 3],
      });
      expect(await takeBoth(buckets, "g", { minute: 4, hour: 3 }, T0)).toEqual({
        granted: true,
        tokens: [9, 2],
      });
    });
  });
}

bucketContract("InMemoryTokenBuckets", () => new InMemoryTokenBuckets());

const unavailable = postgresUnavailableReason();
let server: TestPostgres | undefined;
let url = "";
const pools: pg.Pool[] = [];

/** One process's buckets: its own pool, as each worker and receiver has. */
function postgresBuckets(): PostgresTokenBuckets {
  const pool = createPostgresPool({ url, maxConnections: 4 });
  pools.push(pool);
  return new PostgresTokenBuckets(pool);
}

describe.skipIf(unavailable !== null)("PostgresTokenBuckets", () => {
  beforeAll(async () => {
    server = await startTestPostgres();
    url = await server.createDatabase();
    // The store's migrations create the buckets' table (migration 10).
    await (await PostgresRunStore.open({ url })).close();
  });
  afterAll(async () => {
    for (const pool of pools.splice(0)) await pool.end();
    await server?.stop();
  });

  // Each test its own keys: the table is shared by the file's tests.
  let keys = 0;
  bucketContract("PostgresTokenBuckets", () => {
    const buckets = postgresBuckets();
    const prefix = `t${keys++}:`;
    return {
      take: (requests, now) =>
        buckets.take(
          requests.map((request) => ({ ...request, key: prefix + request.key })),
          now,
        ),
    };
  });

  it("two processes drawing from one bucket at once never get more than it holds", async () => {
    const processes = [postgresBuckets(), postgresBuckets()];
    const granted: number[] = [];
    // 90 s of time in steps of 250 ms; each step every process asks three times at once,
    // 24 asks a second against a refill of one a second.
    for (let step = 0; step <= 360; step++) {
      const now = T0 + step * 250;
      const takes = await Promise.all(
        processes.flatMap((buckets) =>
          [0, 1, 2].map(() => takeOne(buckets, "github-writes:shared", 1, now)),
        ),
      );
      for (const take of takes) if (take.granted) granted.push(now);
    }
    // The burst plus a minute's refill in any minute; all of it over the 90 s, no more.
    expect(peakInWindow(granted, 60_000)).toBeLessThanOrEqual(SHAPE.capacity + SHAPE.perMinute);
    expect(granted).toHaveLength(SHAPE.capacity + 90);
    const [row] = (
      await (pools[0] as pg.Pool).query<{ tokens: number }>(
        "SELECT tokens FROM token_buckets WHERE bucket = 'github-writes:shared'",
      )
    ).rows;
    expect(row?.tokens).toBeCloseTo(0, 6);
  });

  it("two processes taking from two buckets at once: the hour's capacity bounds both, never a deadlock", async () => {
    const processes = [postgresBuckets(), postgresBuckets()];
    const minute: TokenBucketShape = { capacity: 100, perMinute: 60 };
    const hour: TokenBucketShape = { capacity: 10, perMinute: 500 / 60 };
    // Three rounds, each on buckets never seen (the takers race to create them too).
    for (let round = 0; round < 3; round++) {
      const minuteKey = `github-writes:both${round}`;
      const hourKey = `github-writes-hour:both${round}`;
      // 40 takers at once; half name the buckets in the other order, so a statement locking
      // rows in the order named would deadlock (PostgreSQL would fail one after a second).
      const takes = await Promise.all(
        Array.from({ length: 40 }, (_, index) => {
          const requests = [
            { key: minuteKey, shape: minute, need: 1 },
            { key: hourKey, shape: hour, need: 1 },
          ];
          if (index % 2 === 1) requests.reverse();
          return (processes[index % 2] as PostgresTokenBuckets).take(requests, T0);
        }),
      );
      expect(takes.filter((take) => take.granted)).toHaveLength(hour.capacity);
      const { rows } = await (pools[0] as pg.Pool).query<{ bucket: string; tokens: number }>(
        "SELECT bucket, tokens FROM token_buckets WHERE bucket = ANY($1)",
        [[minuteKey, hourKey]],
      );
      // Exactly one token from each bucket per grant.
      expect(Object.fromEntries(rows.map((row) => [row.bucket, row.tokens]))).toEqual({
        [minuteKey]: minute.capacity - hour.capacity,
        [hourKey]: 0,
      });
    }
  });
});
