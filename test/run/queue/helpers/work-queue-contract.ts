import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { JobStopError } from "../../../../src/run/queue/job-stop-error.js";
import type { RoundJob, TakenJob, WorkQueue } from "../../../../src/run/queue/work-queue.js";
import { deferred } from "../../../helpers/deferred.js";
import { eventually } from "../../../helpers/eventually.js";

export interface WorkQueueBackend {
  name: string;
  /** A queue with nothing in it; `maxAttempts` as given. */
  open(options: { maxAttempts: number }): Promise<WorkQueue>;
}

const A = 1001;
const B = 2002;

function job(roundId: string, installationId = A): RoundJob {
  return { roundId, installationId };
}

/** What every WorkQueue does, seen from one process. */
export function workQueueContract(backend: WorkQueueBackend): void {
  let queue: WorkQueue;
  let stopped = false;

  beforeEach(async () => {
    stopped = false;
    queue = await backend.open({ maxAttempts: 2 });
  });
  afterEach(async () => {
    if (!stopped) await queue.stop(1000);
  });

  describe("a work queue", () => {
    it("runs each enqueued round once, and enqueues a round only once", async () => {
      const runs: string[] = [];
      expect(await queue.enqueue(job("r-1"))).toBe(true);
      expect(await queue.enqueue(job("r-1"))).toBe(false);
      await queue.enqueue(job("r-2", B));
      await queue.work(
        async ({ job: taken, attempt }) => {
          runs.push(`${taken.roundId}#${attempt}`);
        },
        { concurrency: 2 },
      );
      await eventually("both rounds ran", () => runs.length === 2);
      await eventually("the queue emptied", async () => {
        const depth = await queue.depth();
        return depth.queued === 0 && depth.active === 0;
      });
      expect(runs.sort()).toEqual(["r-1#1", "r-2#1"]);
    });

    it("gives 2 jobs of B a turn before the last of 20 earlier jobs of A, with one worker", async () => {
      for (let index = 0; index < 20; index++) await queue.enqueue(job(`a-${index}`, A));
      await queue.enqueue(job("b-0", B));
      await queue.enqueue(job("b-1", B));
      const order: string[] = [];
      await queue.work(
        async ({ job: taken }) => {
          order.push(taken.roundId);
        },
        { concurrency: 1 },
      );
      await eventually("all 22 ran", () => order.length === 22);
      // Round-robin: A's first, B's first, A's second, B's second, then the rest of A's.
      expect(order.slice(0, 4)).toEqual(["a-0", "b-0", "a-1", "b-1"]);
      expect(order.filter((id) => id.startsWith("a-"))).toEqual(
        Array.from({ length: 20 }, (_, index) => `a-${index}`),
      );
    });

    it("reports what is queued and what is running", async () => {
      const hold = deferred();
      for (const id of ["d-1", "d-2", "d-3"]) await queue.enqueue(job(id));
      expect(await queue.depth()).toEqual({ queued: 3, active: 0 });
      let started = 0;
      await queue.work(
        async () => {
          started++;
          await hold.promise;
        },
        { concurrency: 1 },
      );
      await eventually("one started", () => started === 1);
      expect(await queue.depth()).toEqual({ queued: 2, active: 1 });
      hold.resolve();
    });

    it("aborts the running round it cancels, and a queued one as it is taken", async () => {
      const signals = new Map<string, AbortSignal>();
      const release = deferred();
      await queue.enqueue(job("running"));
      await queue.work(
        async ({ job: taken, signal }) => {
          signals.set(taken.roundId, signal);
          await release.promise;
        },
        { concurrency: 1 },
      );
      await eventually("the first round runs", () => signals.has("running"));
      await queue.enqueue(job("waiting"));
      await queue.cancel("waiting", "superseded by bbb2222");
      await queue.cancel("running", "superseded by ccc3333");
      const running = signals.get("running");
      await eventually("the running round's signal aborts", () => running?.aborted === true);
      expect(JobStopError.of(running as AbortSignal)).toMatchObject({
        kind: "cancelled",
        message: "superseded by ccc3333",
      });
      release.resolve();
      await eventually("the cancelled queued round is taken", () => signals.has("waiting"));
      const waiting = signals.get("waiting") as AbortSignal;
      expect(waiting.aborted).toBe(true);
      expect(JobStopError.of(waiting)?.message).toBe("superseded by bbb2222");
    });

    it("holds a delayed round until its delay passed, and never starts it later for a longer one", async () => {
      const taken: { roundId: string; at: number }[] = [];
      const enqueuedAt = Date.now();
      expect(await queue.enqueue(job("settling"), { delayMs: 400 })).toBe(true);
      // Joined again with a longer quiet period (a duplicate delivery): the start stays.
      expect(await queue.enqueue(job("settling"), { delayMs: 60_000 })).toBe(false);
      await queue.work(
        async ({ job: round }) => {
          taken.push({ roundId: round.roundId, at: Date.now() });
        },
        { concurrency: 1 },
      );
      await eventually("the delayed round is taken", () => taken.length === 1);
      expect(taken[0]?.roundId).toBe("settling");
      expect((taken[0]?.at ?? 0) - enqueuedAt).toBeGreaterThanOrEqual(350);
    });

    it("starts a waiting round at once when it is enqueued again without delay", async () => {
      const taken: string[] = [];
      await queue.enqueue(job("quiet"), { delayMs: 60_000 });
      await queue.work(
        async ({ job: round }) => {
          taken.push(round.roundId);
        },
        { concurrency: 1 },
      );
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(taken).toEqual([]);
      expect(await queue.depth()).toEqual({ queued: 1, active: 0 });
      // A `@gadfly review` comment joining the round still waiting for pushes to settle.
      expect(await queue.enqueue(job("quiet"))).toBe(false);
      await eventually("the round is taken", () => taken.length === 1);
    });

    it("takes a cancelled round that was waiting out its delay at once, with its signal aborted", async () => {
      const signals = new Map<string, AbortSignal>();
      await queue.enqueue(job("superseded"), { delayMs: 60_000 });
      await queue.work(
        async ({ job: round, signal }) => {
          signals.set(round.roundId, signal);
        },
        { concurrency: 1 },
      );
      await queue.cancel("superseded", "superseded by ddd4444");
      await eventually("the cancelled round is taken", () => signals.has("superseded"));
      expect(JobStopError.of(signals.get("superseded") as AbortSignal)?.message).toBe(
        "superseded by ddd4444",
      );
    });

    it("retries a failing round, saying when it is the last attempt", async () => {
      const takes: Pick<TakenJob, "attempt" | "lastAttempt">[] = [];
      await queue.enqueue(job("flaky"));
      await queue.work(
        async ({ attempt, lastAttempt }) => {
          takes.push({ attempt, lastAttempt });
          throw new Error("GitHub is down");
        },
        { concurrency: 1 },
      );
      await eventually("two attempts", () => takes.length === 2);
      expect(takes).toEqual([
        { attempt: 1, lastAttempt: false },
        { attempt: 2, lastAttempt: true },
      ]);
      await eventually("given up", async () => (await queue.depth()).active === 0);
      expect(await queue.depth()).toEqual({ queued: 0, active: 0 });
    });

    it("aborts running rounds on stop, waits for them, and takes nothing more", async () => {
      const seen: string[] = [];
      let signal: AbortSignal | undefined;
      await queue.enqueue(job("long"));
      await queue.work(
        async ({ job: taken, signal: jobSignal }) => {
          seen.push(taken.roundId);
          signal = jobSignal;
          await new Promise((resolve) => jobSignal.addEventListener("abort", resolve));
        },
        { concurrency: 1 },
      );
      await eventually("the round runs", () => signal !== undefined);
      await queue.stop(2000);
      stopped = true;
      expect(JobStopError.of(signal as AbortSignal)?.kind).toBe("shutdown");
      expect(seen).toEqual(["long"]);
    });
  });
}
