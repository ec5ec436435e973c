import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InMemoryTokenBuckets } from "../../../src/run/queue/in-memory-token-buckets.js";
import { PostgresTokenBuckets } from "../../../src/run/queue/postgres-token-buckets.js";
import type { TokenBucketShape, TokenBuckets } from "../../../src/run/queue/token-buckets.js";
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
const T0 = 1_750_000_000_000;

/** The same contract for one process's buckets and for PostgreSQL's. */
function bucketContract(name: string, open: () => TokenBuckets) {
  describe(`${name}: the token bucket contract`, () => {
    it("starts full, gives its burst at once, then refuses", async () => {
      const buckets = open();
      const takes = [];
      for (let index = 0; index < 11; index++) takes.push(await buckets.take("a", 1, T0));
      expect(takes.filter((take) => take.granted)).toHaveLength(10);
      expect(takes.at(-1)).toEqual({ granted: false, tokens: 0 });
    });

    it("refills by the time elapsed, never above its capacity", async () => {
      const buckets = open();
      for (let index = 0; index < 10; index++) await buckets.take("b", 1, T0);
      expect((await buckets.take("b", 1, T0 + 999)).granted).toBe(false);
      const after = await buckets.take("b", 1, T0 + 1_000);
      expect(after.granted).toBe(true);
      expect(after.tokens).toBeCloseTo(0, 6);
      const later = await buckets.take("b", 1, T0 + 3_600_000);
      expect(later).toEqual({ granted: true, tokens: 9 });
    });

    it("keeps a reserve from a taker that needs more than one token", async () => {
      const buckets = open();
      for (let index = 0; index < 7; index++) await buckets.take("c", 1, T0);
      expect(await buckets.take("c", 4, T0)).toEqual({ granted: false, tokens: 3 });
      expect(await buckets.take("c", 1, T0)).toEqual({ granted: true, tokens: 2 });
    });

    it("adds nothing for a clock running back, and keeps keys apart", async () => {
      const buckets = open();
      for (let index = 0; index < 10; index++) await buckets.take("d", 1, T0 + 5_000);
      expect((await buckets.take("d", 1, T0)).granted).toBe(false);
      expect((await buckets.take("d", 1, T0 + 5_500)).granted).toBe(false);
      expect((await buckets.take("e", 1, T0)).granted).toBe(true);
    });
  });
}

bucketContract("InMemoryTokenBuckets", () => new InMemoryTokenBuckets(SHAPE));

const unavailable = postgresUnavailableReason();
let server: TestPostgres | undefined;
let url = "";
const pools: pg.Pool[] = [];

/** One process's buckets: its own pool, as each worker and receiver has. */
function postgresBuckets(): PostgresTokenBuckets {
  const pool = createPostgresPool({ url, maxConnections: 4 });
  pools.push(pool);
  return new PostgresTokenBuckets({ ...SHAPE, pool });
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
    return { take: (key, need, now) => buckets.take(prefix + key, need, now) };
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
          [0, 1, 2].map(() => buckets.take("github-writes:shared", 1, now)),
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
});
