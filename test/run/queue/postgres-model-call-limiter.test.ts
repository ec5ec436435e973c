import type pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ModelCallLimiter } from "../../../src/llm/limits/model-call-limiter.js";
import {
  PostgresModelCallLimiter,
  type PostgresModelCallLimiterOptions,
} from "../../../src/run/queue/postgres-model-call-limiter.js";
import { createPostgresPool } from "../../../src/run/store/postgres-pool.js";
import { PostgresRunStore } from "../../../src/run/store/postgres-run-store.js";
import { FakeClock } from "../../helpers/fake-clock.js";
import {
  postgresUnavailableReason,
  startTestPostgres,
  type TestPostgres,
} from "../../helpers/postgres-server.js";
import { countInFlight } from "./helpers/count-in-flight.js";

let server: TestPostgres | undefined;
let url = "";
const pools: pg.Pool[] = [];
const limiters: ModelCallLimiter[] = [];
const caps: Record<string, number> = { "ollama-cloud": 3, openai: 1 };

/** One worker's limiter: its own pool, as each worker process has. */
function limiter(overrides: Partial<PostgresModelCallLimiterOptions> = {}): ModelCallLimiter {
  const pool = createPostgresPool({ url, maxConnections: 4 });
  pools.push(pool);
  const created = new PostgresModelCallLimiter({
    pool,
    capFor: (provider) => caps[provider] ?? 1,
    pollMs: 10,
    ...overrides,
  });
  limiters.push(created);
  return created;
}

const pause = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

describe.skipIf(postgresUnavailableReason() !== null)("PostgresModelCallLimiter", () => {
  beforeAll(async () => {
    server = await startTestPostgres();
    url = await server.createDatabase();
    // The store's migrations create the slots table.
    await (await PostgresRunStore.open({ url })).close();
  });
  afterEach(async () => {
    for (const created of limiters.splice(0)) await created.close();
    for (const pool of pools.splice(0)) await pool.end();
    const cleanup = createPostgresPool({ url });
    await cleanup.query("DELETE FROM model_call_slots");
    await cleanup.end();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("never lets more calls per provider in flight than its cap, across workers", async () => {
    const workers = [limiter(), limiter()];
    const counters = { "ollama-cloud": countInFlight(), openai: countInFlight() };
    const call = async (worker: ModelCallLimiter, provider: keyof typeof counters) => {
      const slot = await worker.acquire(provider);
      counters[provider].enter();
      await pause(5 + Math.random() * 10);
      // The call ends before its slot is given back, as limitModelCalls does.
      counters[provider].leave();
      await slot.release();
    };
    await Promise.all(
      Array.from({ length: 24 }, (_, index) => [
        call(workers[index % 2] as ModelCallLimiter, "ollama-cloud"),
        ...(index < 6 ? [call(workers[(index + 1) % 2] as ModelCallLimiter, "openai")] : []),
      ]).flat(),
    );
    expect(counters["ollama-cloud"].most).toBe(3);
    expect(counters.openai.most).toBe(1);
  });

  it("frees the slot of a worker that died holding it once its lease runs out", async () => {
    // Its clock never moves: it never renews, as a killed worker would not.
    const dead = limiter({ leaseMs: 400, clock: new FakeClock() });
    await dead.acquire("openai");
    const alive = limiter({ leaseMs: 400 });
    const started = Date.now();
    const waiting = alive.acquire("openai");
    const early = await Promise.race([
      waiting.then(() => "taken"),
      pause(150).then(() => "waiting"),
    ]);
    expect(early).toBe("waiting");
    await (await waiting).release();
    expect(Date.now() - started).toBeGreaterThanOrEqual(350);
  });

  it("keeps a live holder's slot past its lease by renewing it", async () => {
    const holder = limiter({ leaseMs: 300 });
    const slot = await holder.acquire("openai");
    const other = limiter({ leaseMs: 300 });
    const waiting = other.acquire("openai");
    const outcome = await Promise.race([
      waiting.then(() => "taken"),
      pause(800).then(() => "waiting"),
    ]);
    expect(outcome).toBe("waiting");
    await slot.release();
    await (await waiting).release();
  });

  it("stops waiting when the call is aborted, and gives slots back on close", async () => {
    const holder = limiter();
    await holder.acquire("openai");
    const other = limiter();
    const controller = new AbortController();
    const waiting = other.acquire("openai", controller.signal);
    controller.abort(new Error("round cancelled"));
    await expect(waiting).rejects.toThrow("round cancelled");
    await holder.close();
    await expect(
      Promise.race([other.acquire("openai"), pause(1000).then(() => "still held")]),
    ).resolves.not.toBe("still held");
  });
});
