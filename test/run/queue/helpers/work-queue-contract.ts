import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RoundJob, WorkQueue } from "../../../../src/run/queue/work-queue.js";
import { deferred } from "../../../helpers/deferred.js";
import { eventually } from "../../../helpers/eventually.js";

export interface WorkQueueBackend {
  name: string;
  /** A queue with nothing in it. */
  open(): Promise<WorkQueue>;
}

const A = 1001;
const B = 2002;

function job(roundId: string, installationId = A): RoundJob {
  return { roundId, installationId };
}

/** What every WorkQueue does, seen from one process: dispatch of wake-ups, nothing more. */
export function workQueueContract(backend: WorkQueueBackend): void {
  let queue: WorkQueue;
  let stopped = false;

  beforeEach(async () => {
    stopped = false;
    queue = await backend.open();
  });
  afterEach(async () => {
    if (!stopped) await queue.stop(1000);
  });

  describe("a work queue", () => {
    it("delivers each wake-up once, and keeps one waiting per round", async () => {
      const woken: string[] = [];
      expect(await queue.enqueue(job("r-1"))).toBe(true);
      expect(await queue.enqueue(job("r-1"))).toBe(false);
      await queue.enqueue(job("r-2", B));
      await queue.work(async ({ job: taken }) => {
        woken.push(taken.roundId);
      }, 2);
      await eventually("both rounds were woken", () => woken.length === 2);
      await eventually("the queue emptied", async () => {
        const depth = await queue.depth();
        return depth.queued === 0 && depth.active === 0;
      });
      expect(woken.sort()).toEqual(["r-1", "r-2"]);
    });

    it("gives 2 wake-ups of B a turn before the last of 20 earlier ones of A, with one worker", async () => {
      for (let index = 0; index < 20; index++) await queue.enqueue(job(`a-${index}`, A));
      await queue.enqueue(job("b-0", B));
      await queue.enqueue(job("b-1", B));
      const order: string[] = [];
      await queue.work(async ({ job: taken }) => {
        order.push(taken.roundId);
      }, 1);
      await eventually("all 22 ran", () => order.length === 22);
      // Round-robin: A's first, B's first, A's second, B's second, then the rest of A's.
      expect(order.slice(0, 4)).toEqual(["a-0", "b-0", "a-1", "b-1"]);
      expect(order.filter((id) => id.startsWith("a-"))).toEqual(
        Array.from({ length: 20 }, (_, index) => `a-${index}`),
      );
    });

    it("wakes a round taken up again (a take-over, a hand-back) before every fresh one", async () => {
      for (let index = 0; index < 5; index++) await queue.enqueue(job(`fresh-${index}`, B));
      await queue.enqueue(job("crashed", A), { resume: true });
      await queue.enqueue(job("later", A));
      const order: string[] = [];
      await queue.work(async ({ job: taken }) => {
        order.push(taken.roundId);
      }, 1);
      await eventually("all 7 ran", () => order.length === 7);
      expect(order[0]).toBe("crashed");
      expect(order.slice(1)).not.toContain("crashed");
    });

    it("keeps a take-over ahead when it meets the round's fresh wake-up still waiting", async () => {
      for (let index = 0; index < 5; index++) await queue.enqueue(job(`fresh-${index}`, B));
      // A duplicate delivery woke the round again while it ran (behind B's first by its age);
      // then its worker crashed.
      await queue.enqueue(job("crashed", A));
      expect(await queue.enqueue(job("crashed", A), { resume: true })).toBe(false);
      const order: string[] = [];
      await queue.work(async ({ job: taken }) => {
        order.push(taken.roundId);
      }, 1);
      await eventually("all 6 ran", () => order.length === 6);
      expect(order[0]).toBe("crashed");
      expect(order.filter((id) => id === "crashed")).toHaveLength(1);
    });

    it("brings a waiting wake-up forward to a take-over's shorter delay", async () => {
      const taken: string[] = [];
      await queue.enqueue(job("settling"), { delayMs: 60_000 });
      expect(await queue.enqueue(job("settling"), { delayMs: 200, resume: true })).toBe(false);
      await queue.work(async ({ job: round }) => {
        taken.push(round.roundId);
      }, 1);
      await eventually("the round is woken at the take-over's time", () => taken.length === 1);
    });

    it("holds at most `concurrency` handlers at once, and says what waits and what runs", async () => {
      const hold = deferred();
      for (const id of ["d-1", "d-2", "d-3"]) await queue.enqueue(job(id));
      expect((await queue.depth()).queued).toBe(3);
      let started = 0;
      await queue.work(async () => {
        started++;
        await hold.promise;
      }, 1);
      await eventually("one started", () => started === 1);
      await eventually("two wait, one runs", async () => {
        const depth = await queue.depth();
        return depth.queued === 2 && depth.active === 1;
      });
      expect(started).toBe(1);
      hold.resolve();
      await eventually("all three ran", () => started === 3);
    });

    it("never delivers a wake-up again because its handler failed: the store decides what follows", async () => {
      let calls = 0;
      await queue.enqueue(job("flaky"));
      await queue.work(async () => {
        calls++;
        throw new Error("GitHub is down");
      }, 1);
      await eventually("woken once", () => calls === 1);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(calls).toBe(1);
      expect(await queue.depth()).toEqual({ queued: 0, active: 0 });
      // Asked again (the worker's retry, the sweeper), it is delivered again.
      await queue.enqueue(job("flaky"));
      await eventually("woken again", () => calls === 2);
    });

    it("holds a delayed wake-up until its delay passed, and keeps it for a longer one asked later", async () => {
      const taken: { roundId: string; at: number }[] = [];
      const enqueuedAt = Date.now();
      expect(await queue.enqueue(job("settling"), { delayMs: 400 })).toBe(true);
      expect(await queue.enqueue(job("settling"), { delayMs: 60_000 })).toBe(false);
      await queue.work(async ({ job: round }) => {
        taken.push({ roundId: round.roundId, at: Date.now() });
      }, 1);
      await eventually("the delayed round is woken", () => taken.length === 1);
      expect(taken[0]?.roundId).toBe("settling");
      expect((taken[0]?.at ?? 0) - enqueuedAt).toBeGreaterThanOrEqual(350);
    });

    it("brings a waiting wake-up forward when asked for one without delay", async () => {
      const taken: string[] = [];
      await queue.enqueue(job("quiet"), { delayMs: 60_000 });
      await queue.work(async ({ job: round }) => {
        taken.push(round.roundId);
      }, 1);
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(taken).toEqual([]);
      expect((await queue.depth()).queued).toBe(1);
      // A `@gadfly review` comment joining the round still waiting for pushes to settle.
      expect(await queue.enqueue(job("quiet"))).toBe(false);
      await eventually("the round is woken", () => taken.length === 1);
    });

    it("passes a hint to whoever works the queue", async () => {
      const hints: string[] = [];
      await queue.work(
        async () => undefined,
        1,
        (roundId) => hints.push(roundId),
      );
      await queue.hint("superseded-round");
      await eventually("the hint arrived", () => hints.includes("superseded-round"));
    });

    it("aborts the running handlers' signal on stop, waits for them, and takes nothing more", async () => {
      const seen: string[] = [];
      let signal: AbortSignal | undefined;
      await queue.enqueue(job("long"));
      await queue.work(async ({ job: taken, signal: jobSignal }) => {
        seen.push(taken.roundId);
        signal = jobSignal;
        await new Promise((resolve) => jobSignal.addEventListener("abort", resolve));
      }, 1);
      await eventually("the round runs", () => signal !== undefined);
      await queue.enqueue(job("next"));
      await queue.stop(2000);
      stopped = true;
      expect(signal?.aborted).toBe(true);
      expect(seen).toEqual(["long"]);
    });
  });
}
