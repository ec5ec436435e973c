import { describe, expect, it } from "vitest";
import type { RunStoreBackend } from "../helpers/run-store-backend.js";
import { startRunningRound } from "../helpers/start-running-round.js";
import { useRunStoreFixture } from "../helpers/use-run-store-fixture.js";

/** A round's publishing steps: intent before each GitHub call, done after, for any RunStore. */
export function runStoreContractPublishSteps(backend: RunStoreBackend): void {
  const t = useRunStoreFixture(backend);

  const runningRound = (pullNumber: number) => startRunningRound(t.store, pullNumber);

  describe("publish steps", () => {
    it("records intent then done per step, and an intent never undoes a step done", async () => {
      const roundId = await runningRound(31);
      const other = await runningRound(32);
      expect(await t.store.publishSteps(roundId)).toEqual({});
      await t.store.markPublishStep(roundId, "review", "intent");
      await t.store.markPublishStep(roundId, "consensus", "intent");
      await t.store.markPublishStep(roundId, "consensus", "done");
      expect(await t.store.publishSteps(roundId)).toEqual({
        review: "intent",
        consensus: "done",
      });
      // A resumed round records its intent again before the same step: done stays done.
      await t.store.markPublishStep(roundId, "consensus", "intent");
      await t.store.markPublishStep(roundId, "review", "intent");
      expect(await t.store.publishSteps(roundId)).toEqual({
        review: "intent",
        consensus: "done",
      });
      // Per round.
      expect(await t.store.publishSteps(other)).toEqual({});
    });

    it("refuses a step for a round the store does not have", async () => {
      await expect(t.store.markPublishStep("no-such-round", "review", "intent")).rejects.toThrow();
    });
  });
}
