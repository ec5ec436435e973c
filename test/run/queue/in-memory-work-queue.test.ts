import { describe, expect, it } from "vitest";
import { InMemoryWorkQueue } from "../../../src/run/queue/in-memory-work-queue.js";
import { FakeClock, settle } from "../../helpers/fake-clock.js";
import { workQueueContract } from "./helpers/work-queue-contract.js";

describe("InMemoryWorkQueue", () => {
  workQueueContract({
    name: "in memory",
    open: async () => new InMemoryWorkQueue(),
  });

  describe("delayed rounds, on an injected clock", () => {
    async function started() {
      const clock = new FakeClock();
      const queue = new InMemoryWorkQueue({ clock });
      const taken: string[] = [];
      await queue.work(async ({ job }) => {
        taken.push(job.roundId);
      }, 1);
      return { clock, queue, taken };
    }

    it("takes a round exactly when its quiet period ends, leaving no timer behind", async () => {
      const { clock, queue, taken } = await started();
      await queue.enqueue({ roundId: "push-1", installationId: 1 }, { delayMs: 30_000 });
      await clock.advanceAndSettle(29_999);
      expect(taken).toEqual([]);
      await clock.advanceAndSettle(1);
      expect(taken).toEqual(["push-1"]);
      await settle();
      expect(clock.pending()).toBe(0);
    });

    it("runs rounds whose delay passed before one still waiting, whatever the enqueue order", async () => {
      const { clock, queue, taken } = await started();
      await queue.enqueue({ roundId: "waits", installationId: 1 }, { delayMs: 30_000 });
      await queue.enqueue({ roundId: "comment", installationId: 2 });
      await settle();
      expect(taken).toEqual(["comment"]);
      // Brought forward by a comment: the one timer moves too, none is left for 30 s later.
      await queue.enqueue({ roundId: "waits", installationId: 1 });
      await settle();
      expect(taken).toEqual(["comment", "waits"]);
      await settle();
      expect(clock.pending()).toBe(0);
    });

    it("clears its timer on stop, and takes nothing after", async () => {
      const { clock, queue, taken } = await started();
      await queue.enqueue({ roundId: "late", installationId: 1 }, { delayMs: 30_000 });
      await queue.stop(0);
      expect(clock.pending()).toBe(0);
      await clock.advanceAndSettle(60_000);
      expect(taken).toEqual([]);
    });
  });
});
