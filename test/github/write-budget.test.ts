import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

/** The production defaults: 60 a minute, bursts of 10, 3 tokens kept from board edits. */
const SHAPE: TokenBucketShape = { capacity: 10, perMinute: 60 };
const INSTALLATION = 42;

/** Records each granted take on the bucket's own time, whoever asked. */
function recording(
  buckets: TokenBuckets,
  log: { at: number; need: number; left: number }[],
): TokenBuckets {
  return {
    async take(key, need, now) {
      const taken = await buckets.take(key, need, now);
      if (taken.granted) log.push({ at: now, need, left: taken.tokens });
      return taken;
    },
  };
}

function budget(clock: FakeClock, overrides: Partial<WriteBudgetOptions> = {}): WriteBudget {
  return new WriteBudget({
    buckets: new InMemoryTokenBuckets(SHAPE),
    shape: SHAPE,
    reserve: 3,
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
    const granted: { at: number; need: number; left: number }[] = [];
    const writes = budget(clock, {
      buckets: recording(new InMemoryTokenBuckets(SHAPE), granted),
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
        "token and gave up (60 a minute, burst 10; GADFLY_GITHUB_WRITES_PER_MINUTE, " +
        "GADFLY_GITHUB_WRITE_WAIT_SECONDS)",
    );
    await clock.advanceAndSettle(10_000);
    expect(clock.pending()).toBe(0);
  });

  it("asks the bucket again while it cannot be read, and names why when it gives up", async () => {
    const clock = new FakeClock();
    let failures = 3;
    const buckets = new InMemoryTokenBuckets(SHAPE);
    const flaky: TokenBuckets = {
      take: async (key, need, now) => {
        if (failures-- > 0) throw new Error("connection refused");
        return buckets.take(key, need, now);
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
    const granted: { at: number; need: number; left: number }[] = [];
    const process = () => {
      const pool = createPostgresPool({ url, maxConnections: 2 });
      pools.push(pool);
      return budget(clock, {
        buckets: recording(new PostgresTokenBuckets({ ...SHAPE, pool }), granted),
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
