import { describe, expect, it } from "vitest";
import { settleAll } from "../../src/run/settle-all.js";

describe("settleAll", () => {
  it("resolves with every result in order when none fails", async () => {
    const stop = new AbortController();
    await expect(settleAll([3, 1, 2], async (n) => n * 10, stop)).resolves.toEqual([30, 10, 20]);
    expect(stop.signal.aborted).toBe(false);
  });

  it("stops the others at the first failure, and throws it only once all have settled", async () => {
    const stop = new AbortController();
    const events: string[] = [];
    const failure = new Error("the lens report could not be saved");
    const work = async (item: string): Promise<string> => {
      if (item === "fails") {
        events.push("fails threw");
        throw failure;
      }
      // A session still calling its model: it ends only when told to stop.
      await new Promise<void>((resolve) =>
        stop.signal.addEventListener("abort", () => resolve(), { once: true }),
      );
      await new Promise((resolve) => setTimeout(resolve, 5));
      events.push(`${item} stopped`);
      throw new Error(`${item} aborted`);
    };
    const settled = settleAll(["slow-1", "fails", "slow-2"], work, stop).catch((error: unknown) => {
      events.push("settleAll threw");
      throw error;
    });
    await expect(settled).rejects.toBe(failure);
    expect(stop.signal.aborted).toBe(true);
    expect(events).toEqual(["fails threw", "slow-1 stopped", "slow-2 stopped", "settleAll threw"]);
  });
});
