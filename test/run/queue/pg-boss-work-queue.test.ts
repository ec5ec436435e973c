import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { JobStopError } from "../../../src/run/queue/job-stop-error.js";
import {
  PgBossWorkQueue,
  type PgBossWorkQueueOptions,
} from "../../../src/run/queue/pg-boss-work-queue.js";
import { roundJobId } from "../../../src/run/queue/round-job-id.js";
import type { TakenJob } from "../../../src/run/queue/work-queue.js";
import { deferred } from "../../helpers/deferred.js";
import { eventually } from "../../helpers/eventually.js";
import { FakeClock } from "../../helpers/fake-clock.js";
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
  const queue = await PgBossWorkQueue.start({
    url,
    queueName,
    visibilityTimeoutMs: 30_000,
    pollIntervalMs: 50,
    retryDelaySeconds: 0,
    ...overrides,
  });
  opened.push(queue);
  return queue;
}

async function jobRow(roundId: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ state: string; retry_count: number }>(
      "SELECT state, retry_count FROM pgboss.job WHERE name = $1 AND id = $2",
      [queueName, roundJobId(roundId)],
    );
    return rows[0];
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
    open: async ({ maxAttempts }) => {
      freshQueueName();
      return openQueue({ maxAttempts });
    },
  });

  describe("across workers", () => {
    it("gives each job to exactly one of two workers", async () => {
      freshQueueName();
      const receiver = await openQueue();
      const workers = [await openQueue(), await openQueue()];
      const runs: { roundId: string; worker: number }[] = [];
      for (const [index, worker] of workers.entries()) {
        await worker.work(
          async ({ job }) => {
            runs.push({ roundId: job.roundId, worker: index });
            await new Promise((resolve) => setTimeout(resolve, 5));
          },
          { concurrency: 3 },
        );
      }
      const ids = Array.from({ length: 16 }, (_, index) => `round-${index}`);
      await Promise.all(
        ids.map((roundId, index) => receiver.enqueue({ roundId, installationId: index % 3 })),
      );
      // A duplicate delivery at another receiver enqueues nothing more.
      expect(await workers[0]?.enqueue({ roundId: "round-3", installationId: 0 })).toBe(false);
      await eventually("every round ran", () => runs.length >= ids.length);
      await eventually("the queue emptied", async () => {
        const depth = await receiver.depth();
        return depth.queued === 0 && depth.active === 0;
      });
      expect(runs.map((run) => run.roundId).sort()).toEqual([...ids].sort());
    });

    it("retries the job of a worker that stopped heartbeating on another worker", async () => {
      freshQueueName();
      const frozen = new FakeClock(Date.now());
      // Its timers never fire: it takes the job, then never beats again, as if it hung or died.
      const dying = await openQueue({ visibilityTimeoutMs: 1000, clock: frozen });
      const first = deferred<TakenJob>();
      await dying.work(
        async (taken) => {
          first.resolve(taken);
          await new Promise((resolve) => taken.signal.addEventListener("abort", resolve));
        },
        { concurrency: 1 },
      );
      await dying.enqueue({ roundId: "orphan", installationId: 1 });
      const lost = await first.promise;
      expect(lost.attempt).toBe(1);

      const survivor = await openQueue({
        visibilityTimeoutMs: 1000,
        maintenanceIntervalSeconds: 1,
      });
      const second = deferred<TakenJob>();
      const finish = deferred();
      await survivor.work(
        async (taken) => {
          second.resolve(taken);
          await finish.promise;
        },
        { concurrency: 1 },
      );
      const retried = await second.promise;
      expect(retried).toMatchObject({ job: { roundId: "orphan" }, attempt: 2 });
      expect(lost.signal.aborted).toBe(false);

      // The old worker's next heartbeat finds the job gone, and stops.
      await frozen.advanceAndSettle(1000);
      await eventually("the old worker learns it lost the job", () => lost.signal.aborted);
      expect(JobStopError.of(lost.signal)?.kind).toBe("lost");
      finish.resolve();
      await eventually(
        "the retry completed",
        async () => (await jobRow("orphan"))?.state === "completed",
      );
      expect((await jobRow("orphan"))?.retry_count).toBe(1);
    });

    it("keeps a live worker's job past the visibility timeout by heartbeating", async () => {
      freshQueueName();
      const worker = await openQueue({ visibilityTimeoutMs: 600 });
      const taken = deferred<TakenJob>();
      const finish = deferred();
      await worker.work(
        async (job) => {
          taken.resolve(job);
          await finish.promise;
        },
        { concurrency: 1 },
      );
      await worker.enqueue({ roundId: "slow", installationId: 1 });
      const { signal } = await taken.promise;
      // Twice the visibility timeout, and past the 1 s expiry the job was sent with.
      await new Promise((resolve) => setTimeout(resolve, 1200));
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const { rows } = await client.query<{ expired: boolean }>(
          "SELECT started_on + expire_in < now() AS expired FROM pgboss.job WHERE name = $1 AND id = $2",
          [queueName, roundJobId("slow")],
        );
        // What pg-boss's maintenance would hand to another worker: not this job.
        expect(rows).toEqual([{ expired: false }]);
      } finally {
        await client.end();
      }
      expect(signal.aborted).toBe(false);
      finish.resolve();
      await eventually("completed", async () => (await jobRow("slow"))?.state === "completed");
      expect((await jobRow("slow"))?.retry_count).toBe(0);
    });

    it("hands a stopping worker's job to another worker at once, not after the timeout", async () => {
      freshQueueName();
      const leaving = await openQueue();
      const taken = deferred<TakenJob>();
      await leaving.work(
        async (job) => {
          taken.resolve(job);
          await new Promise((resolve) => job.signal.addEventListener("abort", resolve));
        },
        { concurrency: 1 },
      );
      await leaving.enqueue({ roundId: "deploy", installationId: 1 });
      const first = await taken.promise;
      const staying = await openQueue();
      const attempts: number[] = [];
      await staying.work(
        async ({ attempt }) => {
          attempts.push(attempt);
        },
        { concurrency: 1 },
      );
      await leaving.stop(2000);
      expect(JobStopError.of(first.signal)?.kind).toBe("shutdown");
      // The visibility timeout is 30 s: only the release can explain a take this soon.
      await eventually("another worker took it", () => attempts.length === 1, 5000);
      expect(attempts).toEqual([2]);
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
      await restarted.work(
        async () => {
          taken.push(Date.now());
        },
        { concurrency: 1 },
      );
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(taken).toEqual([]);
      expect(await jobRow("settling")).toMatchObject({ state: "created" });
      await eventually("the round is taken once its quiet period passed", () => taken.length === 1);
      expect((taken[0] ?? 0) - enqueuedAt).toBeGreaterThanOrEqual(1400);
    });

    it("delivers a cancellation to the worker holding the round, sent from another process", async () => {
      freshQueueName();
      const receiver = await openQueue();
      const holder = await openQueue();
      const taken = deferred<TakenJob>();
      await holder.work(
        async (job) => {
          taken.resolve(job);
          await new Promise((resolve) => job.signal.addEventListener("abort", resolve));
        },
        { concurrency: 1 },
      );
      await receiver.enqueue({ roundId: "pushed-over", installationId: 1 });
      const { signal } = await taken.promise;
      await receiver.cancel("pushed-over", "superseded by bbb2222");
      await eventually("the holder's signal aborts", () => signal.aborted, 3000);
      expect(JobStopError.of(signal)).toMatchObject({
        kind: "cancelled",
        message: "superseded by bbb2222",
      });
      await eventually(
        "the job completed",
        async () => (await jobRow("pushed-over"))?.state === "completed",
      );
    });
  });
});
