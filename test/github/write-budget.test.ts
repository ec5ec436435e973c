import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hourlyWriteShape } from "../../src/github/hourly-write-shape.js";
import {
  WriteBudget,
  type WriteBudgetOptions,
  WriteBudgetTimeoutError,
  type WritePriority,
} from "../../src/github/write-budget.js";
import { InMemoryTokenBuckets } from "../../src/run/queue/in-memory-token-buckets.js";
import { PostgresTokenBuckets } from "../../src/run/queue/postgres-token-buckets.js";
import type { TokenBucketShape, TokenBuckets } from "../../src/run/queue/token-buckets.js";
import { createPostgresPool } from "../../src/run/store/postgres-pool.js";
import { PostgresRunStore } from "../../src/run/store/postgres-run-store.js";
import { FakeClock, settle } from "../helpers/fake-clock.js";
import {
  postgresUnavailableReason,
  startTestPostgres,
  type TestPostgres,
} from "../helpers/postgres-server.js";
import { peakInWindow } from "../run/queue/helpers/peak-in-window.js";

/**
 * The production defaults: 60 a minute, bursts of 10, 3 tokens kept from board edits; at most
 * 500 in any hour (bursts of 250, 250 an hour), 83 kept from board edits.
 */
const SHAPE: TokenBucketShape = { capacity: 10, perMinute: 60 };
const HOUR: TokenBucketShape = hourlyWriteShape(500);
const INSTALLATION = 42;

interface Grant {
  at: number;
  /** The minute bucket's need and what the grant left there. */
  need: number;
  left: number;
  /** The hour bucket's, when there is one. */
  hourNeed?: number;
  hourLeft?: number;
}

/** Records each granted take on the buckets' own time, whoever asked. */
function recording(buckets: TokenBuckets, log: Grant[], asks: { count: number } = { count: 0 }) {
  const wrapped: TokenBuckets = {
    async take(requests, now) {
      asks.count++;
      const taken = await buckets.take(requests, now);
      if (taken.granted) {
        const grant: Grant = { at: now, need: requests[0]?.need ?? 0, left: taken.tokens[0] ?? 0 };
        if (requests[1] !== undefined) {
          grant.hourNeed = requests[1].need;
          grant.hourLeft = taken.tokens[1] ?? 0;
        }
        log.push(grant);
      }
      return taken;
    },
  };
  return wrapped;
}

function budget(clock: FakeClock, overrides: Partial<WriteBudgetOptions> = {}): WriteBudget {
  return new WriteBudget({
    buckets: new InMemoryTokenBuckets(),
    minute: { shape: SHAPE, reserve: 3 },
    hour: { shape: HOUR, reserve: 33 },
    maxWaitMs: 300_000,
    clock,
    random: () => 0,
    ...overrides,
  });
}

/** Starts takes and notes when (on the fake clock) and in which order each resolves. */
function track(clock: FakeClock, writes: WriteBudget) {
  const done: { label: string; at: number }[] = [];
  const take = (label: string, priority: WritePriority, signal?: AbortSignal) =>
    writes.take(INSTALLATION, priority, signal).then(() => {
      done.push({ label, at: clock.now() });
    });
  return { done, take };
}

describe("WriteBudget (one process)", () => {
  it("lets its burst through at once, then one write a second, on the injected clock", async () => {
    const clock = new FakeClock();
    const start = clock.now();
    const { done, take } = track(clock, budget(clock));
    for (let index = 0; index < 14; index++) void take(`w${index}`, "normal");
    await settle();
    expect(done).toHaveLength(10);
    await clock.advanceAndSettle(4_000);
    expect(done.map((write) => write.at - start)).toEqual([
      ...Array.from({ length: 10 }, () => 0),
      1_000,
      2_000,
      3_000,
      4_000,
    ]);
    // Nothing waits, so no timer is left behind.
    expect(clock.pending()).toBe(0);
  });

  it("holds board edits back while other writes wait, and keeps the reserve for them", async () => {
    const clock = new FakeClock();
    const start = clock.now();
    const granted: Grant[] = [];
    const writes = budget(clock, {
      buckets: recording(new InMemoryTokenBuckets(), granted),
    });
    const { done, take } = track(clock, writes);
    // The boards first: they still come after every normal write.
    for (let index = 0; index < 4; index++) void take(`board${index}`, "board");
    for (let index = 0; index < 12; index++) void take(`final${index}`, "normal");
    await settle();
    // The burst goes to the finals; the boards would leave less than the reserve.
    expect(done.map((write) => write.label)).toEqual(
      Array.from({ length: 10 }, (_, index) => `final${index}`),
    );
    await clock.advanceAndSettle(2_000);
    expect(done.slice(10).map((write) => write.label)).toEqual(["final10", "final11"]);
    // Board edits take a token only when 3 more stay for the rest: 4 tokens from empty is 4 s.
    await clock.advanceAndSettle(3_999);
    expect(done).toHaveLength(12);
    await clock.advanceAndSettle(1);
    expect(done.at(-1)).toEqual({ label: "board0", at: start + 6_000 });
    // A final arriving behind waiting boards goes first, as soon as there is a token.
    void take("late-final", "normal");
    await clock.advanceAndSettle(1_000);
    expect(done.at(-1)).toEqual({ label: "late-final", at: start + 7_000 });
    await clock.advanceAndSettle(60_000);
    expect(done.map((write) => write.label).slice(-3)).toEqual(["board1", "board2", "board3"]);
    // Every token asked for by a board edit left the reserve in the bucket (the first, asked
    // for before the finals came, went to the first final: it is the lane's head by then).
    const boardGrants = granted.filter((taken) => taken.need > 1);
    expect(boardGrants.length).toBeGreaterThanOrEqual(4);
    for (const grant of boardGrants) expect(grant.left).toBeGreaterThanOrEqual(3);
  });

  it("gives up after its bound with a clear error, or when the write is aborted", async () => {
    const clock = new FakeClock();
    const writes = budget(clock, { maxWaitMs: 5_000 });
    const { take } = track(clock, writes);
    for (let index = 0; index < 10; index++) await take(`w${index}`, "normal");
    // Ten boards wait for 4 tokens each: the first gets its turn after 4 s, the second never.
    const boards = Array.from({ length: 2 }, (_, index) =>
      take(`board${index}`, "board").then(
        () => "written",
        (error: unknown) => error,
      ),
    );
    const controller = new AbortController();
    const aborted = take("aborted", "normal", controller.signal).catch((error: unknown) => error);
    controller.abort(new Error("round superseded"));
    expect(await aborted).toEqual(new Error("round superseded"));
    await clock.advanceAndSettle(5_000);
    const [first, second] = await Promise.all(boards);
    expect(first).toBe("written");
    expect(second).toBeInstanceOf(WriteBudgetTimeoutError);
    expect((second as Error).message).toBe(
      "GitHub write budget: a content-creating request for installation 42 waited 5 s for a " +
        "token and gave up (60 a minute, burst 10; at most 500 an hour; " +
        "GADFLY_GITHUB_WRITES_PER_MINUTE, GADFLY_GITHUB_WRITES_PER_HOUR, " +
        "GADFLY_GITHUB_WRITE_WAIT_SECONDS)",
    );
    await clock.advanceAndSettle(10_000);
    expect(clock.pending()).toBe(0);
  });

  it("asks the bucket again while it cannot be read, and names why when it gives up", async () => {
    const clock = new FakeClock();
    let failures = 3;
    const buckets = new InMemoryTokenBuckets();
    const flaky: TokenBuckets = {
      take: async (requests, now) => {
        if (failures-- > 0) throw new Error("connection refused");
        return buckets.take(requests, now);
      },
    };
    const { done, take } = track(clock, budget(clock, { buckets: flaky }));
    void take("after-outage", "normal");
    await settle();
    await clock.advanceAndSettle(3_000);
    expect(done).toEqual([{ label: "after-outage", at: clock.now() }]);

    const down: TokenBuckets = {
      take: async () => {
        throw new Error("connection refused");
      },
    };
    const failing = budget(clock, { buckets: down, maxWaitMs: 2_500 });
    const outcome = failing.take(INSTALLATION, "normal").catch((error: unknown) => error);
    await settle();
    await clock.advanceAndSettle(3_000);
    expect(String(await outcome)).toContain(
      "the budget could not be read: Error: connection refused",
    );
  });

  it.each([
    { name: "the default minute (60, bursts of 10)", minute: SHAPE },
    { name: "a minute of 80, bursts of 80", minute: { capacity: 80, perMinute: 80 } },
  ])("keeps any 60 minutes at 500 under 600 writes at 80 a minute: $name", async ({ minute }) => {
    const clock = new FakeClock();
    const granted: Grant[] = [];
    const writes = budget(clock, {
      buckets: recording(new InMemoryTokenBuckets(), granted),
      minute: { shape: minute, reserve: 3 },
      maxWaitMs: 3 * 3_600_000,
    });
    const { done, take } = track(clock, writes);
    // A busy installation: a write every 750 ms for 7.5 minutes.
    for (let index = 0; index < 600; index++) {
      void take(`w${index}`, "normal");
      await clock.advanceAndSettle(750);
    }
    await clock.advanceAndSettle(2 * 3_600_000);
    expect(done).toHaveLength(600);
    const times = granted.map((grant) => grant.at);
    // GitHub's hour: the burst of 250 and 250 refilled, never 500 (nor the 1,000 a bucket of
    // 500 refilled at 500 an hour would give in the hour after a quiet one).
    expect(peakInWindow(times, 3_600_000)).toBeLessThanOrEqual(500);
    expect(peakInWindow(times, 60_000)).toBeLessThanOrEqual(minute.capacity + minute.perMinute);
    // The rest waited for the hour's refill, one every 14.4 s.
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThanOrEqual(3_600_000);
    expect(clock.pending()).toBe(0);
  });

  it("holds board edits back first when the hour runs low, waiting for the hour's tokens", async () => {
    const clock = new FakeClock();
    const start = clock.now();
    const granted: Grant[] = [];
    const asks = { count: 0 };
    // A minute that never binds; an hour of 10, one back a minute, 3 kept from board edits.
    const writes = budget(clock, {
      buckets: recording(new InMemoryTokenBuckets(), granted, asks),
      minute: { shape: { capacity: 100, perMinute: 100 }, reserve: 3 },
      hour: { shape: { capacity: 10, perMinute: 1 }, reserve: 3 },
    });
    const { done, take } = track(clock, writes);
    for (let index = 0; index < 7; index++) void take(`final${index}`, "normal");
    await settle();
    // Three left in the hour, four needed: the board waits though the minute holds 93.
    void take("board", "board");
    await settle();
    expect(done).toHaveLength(7);
    void take("late-final", "normal");
    await settle();
    expect(done.map((write) => write.label).slice(-1)).toEqual(["late-final"]);
    // Two left, four needed, one a minute: asked again once, after two minutes, not before.
    asks.count = 0;
    await clock.advanceAndSettle(119_999);
    expect(done).toHaveLength(8);
    await clock.advanceAndSettle(1);
    expect(done.at(-1)).toEqual({ label: "board", at: start + 120_000 });
    expect(asks.count).toBe(1);
    const board = granted.find((grant) => grant.hourNeed === 4);
    expect(board?.hourLeft).toBeCloseTo(3, 6);
  });
});

const unavailable = postgresUnavailableReason();
let server: TestPostgres | undefined;
let url = "";
const pools: pg.Pool[] = [];

describe.skipIf(unavailable !== null)("WriteBudget over PostgreSQL (two processes)", () => {
  beforeAll(async () => {
    server = await startTestPostgres();
    url = await server.createDatabase();
    await (await PostgresRunStore.open({ url })).close();
  });
  afterAll(async () => {
    for (const pool of pools.splice(0)) await pool.end();
    await server?.stop();
  });

  it("shares one bucket: never more than it holds, and one process's board edits yield to the other's finals", async () => {
    // Two processes, each its own pool and budget, on one clock (hosts keep time together).
    const clock = new FakeClock();
    const start = clock.now();
    const granted: Grant[] = [];
    const process = () => {
      const pool = createPostgresPool({ url, maxConnections: 2 });
      pools.push(pool);
      return budget(clock, {
        buckets: recording(new PostgresTokenBuckets(pool), granted),
      });
    };
    const finals = track(clock, process());
    const boards = track(clock, process());
    const all = Array.from({ length: 30 }, (_, index) => finals.take(`final${index}`, "normal"));
    // The first process takes the burst; then the other's board edits start to wait too.
    while (finals.done.length < SHAPE.capacity)
      await new Promise((resolve) => setTimeout(resolve, 5));
    all.push(...Array.from({ length: 8 }, (_, index) => boards.take(`board${index}`, "board")));
    // The clock moves 100 ms at a time, each step after the database has answered.
    let finished = false;
    void Promise.all(all).then(() => {
      finished = true;
    });
    for (let step = 0; step < 1_500 && !finished; step++) {
      await new Promise((resolve) => setTimeout(resolve, 2));
      await clock.advanceAndSettle(100);
    }
    expect(finished).toBe(true);
    const times = granted.map((grant) => grant.at);
    expect(peakInWindow(times, 60_000)).toBeLessThanOrEqual(SHAPE.capacity + SHAPE.perMinute);
    expect(peakInWindow(times, 10_000)).toBeLessThanOrEqual(SHAPE.capacity + 10);
    // 38 writes: the burst of 10 at once, then one a second.
    expect(Math.max(...times) - start).toBeGreaterThanOrEqual(27_000);
    const lastFinal = Math.max(...finals.done.map((write) => write.at));
    const firstBoard = Math.min(...boards.done.map((write) => write.at));
    expect(firstBoard).toBeGreaterThan(lastFinal);
  });
});
