import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  DEFAULT_QUEUE_SCHEMA,
  PgBossWorkQueue,
  type PgBossWorkQueueOptions,
} from "../../../src/run/queue/pg-boss-work-queue.js";
import type { TakenJob } from "../../../src/run/queue/work-queue.js";
import { deferred } from "../../helpers/deferred.js";
import { eventually } from "../../helpers/eventually.js";
import {
  postgresUnavailableReason,
  startTestPostgres,
  type TestPostgres,
} from "../../helpers/postgres-server.js";
import { workQueueContract } from "./helpers/work-queue-contract.js";

let server: TestPostgres | undefined;
let url = "";
let queueName = "";
const opened: PgBossWorkQueue[] = [];

/** A queue on this test's pg-boss queue; tests are fast because nothing waits long. */
async function openQueue(overrides: Partial<PgBossWorkQueueOptions> = {}) {
  const queue = await PgBossWorkQueue.start({ url, queueName, pollIntervalMs: 50, ...overrides });
  opened.push(queue);
  return queue;
}

/** The wake-ups pg-boss keeps for a round, oldest first. */
async function wakeUps(roundId: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ state: string; retry_count: number }>(
      `SELECT state, retry_count FROM ${DEFAULT_QUEUE_SCHEMA}.job
       WHERE name = $1 AND singleton_key = $2 ORDER BY created_on`,
      [queueName, roundId],
    );
    return rows;
  } finally {
    await client.end();
  }
}

describe.skipIf(postgresUnavailableReason() !== null)("PgBossWorkQueue", () => {
  beforeAll(async () => {
    server = await startTestPostgres();
    url = await server.createDatabase();
  });
  afterAll(async () => {
    await server?.stop();
  });
  // Every test (and every test of the contract) gets a queue of its own in the shared database.
  const freshQueueName = () => {
    queueName = `rounds_${randomBytes(4).toString("hex")}`;
  };
  afterEach(async () => {
    for (const queue of opened.splice(0)) await queue.stop(500);
  });

  workQueueContract({
    name: "pg-boss",
    open: async () => {
      freshQueueName();
      return openQueue();
    },
  });

  describe("across workers", () => {
    it("gives each job to exactly one of two workers", async () => {
      freshQueueName();
      const receiver = await openQueue();
      const workers = [await openQueue(), await openQueue()];
      const runs: { roundId: string; worker: number }[] = [];
      const ids = Array.from({ length: 16 }, (_, index) => `round-${index}`);
      await Promise.all(
        ids.map((roundId, index) => receiver.enqueue({ roundId, installationId: index % 3 })),
      );
      // A duplicate delivery at another receiver, while the wake-up waits, sends nothing more.
      expect(await workers[0]?.enqueue({ roundId: "round-3", installationId: 0 })).toBe(false);
      for (const [index, worker] of workers.entries()) {
        await worker.work(async ({ job }) => {
          runs.push({ roundId: job.roundId, worker: index });
          await new Promise((resolve) => setTimeout(resolve, 5));
        }, 3);
      }
      await eventually("every round ran", () => runs.length >= ids.length);
      await eventually("the queue emptied", async () => {
        const depth = await receiver.depth();
        return depth.queued === 0 && depth.active === 0;
      });
      expect(runs.map((run) => run.roundId).sort()).toEqual([...ids].sort());
    });

    it("completes a wake-up as it is taken: a stopping worker leaves nothing for pg-boss to retry", async () => {
      freshQueueName();
      const leaving = await openQueue();
      const taken = deferred<TakenJob>();
      await leaving.work(async (job) => {
        taken.resolve(job);
        await new Promise((resolve) => job.signal.addEventListener("abort", resolve));
      }, 1);
      await leaving.enqueue({ roundId: "deploy", installationId: 1 });
      const first = await taken.promise;
      expect(await wakeUps("deploy")).toEqual([{ state: "completed", retry_count: 0 }]);
      await leaving.stop(2000);
      expect(first.signal.aborted).toBe(true);
      // The round goes back to the store (the worker releases it) and is woken anew there.
      expect(await wakeUps("deploy")).toEqual([{ state: "completed", retry_count: 0 }]);
    });

    it("keeps a round waiting out its quiet period across a restart, and starts it on time", async () => {
      freshQueueName();
      const receiver = await openQueue();
      const enqueuedAt = Date.now();
      await receiver.enqueue({ roundId: "settling", installationId: 1 }, { delayMs: 1500 });
      await receiver.stop(500);
      opened.splice(opened.indexOf(receiver), 1);
      const restarted = await openQueue();
      const taken: number[] = [];
      await restarted.work(async () => {
        taken.push(Date.now());
      }, 1);
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(taken).toEqual([]);
      expect(await wakeUps("settling")).toEqual([{ state: "created", retry_count: 0 }]);
      await eventually("the round is taken once its quiet period passed", () => taken.length === 1);
      expect((taken[0] ?? 0) - enqueuedAt).toBeGreaterThanOrEqual(1400);
    });

    it("delivers a hint to the worker holding the round, sent from another process", async () => {
      freshQueueName();
      const receiver = await openQueue();
      const holder = await openQueue();
      const hints: string[] = [];
      await holder.work(
        async () => undefined,
        1,
        (roundId) => hints.push(roundId),
      );
      await receiver.hint("pushed-over");
      await eventually("the holder heard it", () => hints.includes("pushed-over"), 3000);
    });
  });
});
