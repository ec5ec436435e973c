import { describe, expect, it } from "vitest";
import { CoalescedWriter } from "../../src/run/coalesced-writer.js";
import { FakeClock, settle } from "../helpers/fake-clock.js";

function setup(options: { failTimes?: number } = {}) {
  const clock = new FakeClock();
  const writes: { state: number; at: number }[] = [];
  const errors: unknown[] = [];
  let failures = options.failTimes ?? 0;
  const writer = new CoalescedWriter<number>({
    intervalMs: 2000,
    clock,
    onError: (error) => errors.push(error),
    write: async (state) => {
      if (failures > 0) {
        failures--;
        throw new Error("500 from GitHub");
      }
      writes.push({ state, at: clock.now() });
    },
  });
  return { clock, writes, errors, writer };
}

describe("CoalescedWriter", () => {
  it("writes the first state at once and coalesces a burst into one write per interval", async () => {
    const { clock, writes, writer } = setup();
    const start = clock.now();
    writer.update(1);
    await settle();
    for (let state = 2; state <= 50; state++) writer.update(state);
    await settle();
    expect(writes.map((write) => write.state)).toEqual([1]);
    await clock.advanceAndSettle(1999);
    expect(writes).toHaveLength(1);
    await clock.advanceAndSettle(1);
    expect(writes.map((write) => [write.state, write.at - start])).toEqual([
      [1, 0],
      [50, 2000],
    ]);
  });

  it("never writes twice within the interval over a long busy stream", async () => {
    const { clock, writes, writer } = setup();
    for (let step = 0; step < 300; step++) {
      writer.update(step);
      await clock.advanceAndSettle(97);
    }
    await writer.flush();
    const gaps = writes.slice(1).map((write, index) => write.at - (writes[index]?.at ?? 0));
    expect(Math.min(...gaps.slice(0, -1))).toBeGreaterThanOrEqual(2000);
    expect(writes.at(-1)?.state).toBe(299);
  });

  it("flush always writes the final state, even inside the interval", async () => {
    const { clock, writes, writer } = setup();
    writer.update(1);
    await settle();
    writer.update(2);
    expect(await writer.flush()).toBe(true);
    expect(writes.map((write) => write.state)).toEqual([1, 2]);
    expect(clock.pending()).toBe(0);
    writer.update(3);
    await clock.advanceAndSettle(10_000);
    expect(writes.map((write) => write.state)).toEqual([1, 2]);
  });

  it("keeps a failed state pending and writes it later; flush retries the final state", async () => {
    const { clock, writes, errors, writer } = setup({ failTimes: 2 });
    writer.update(1);
    await settle();
    expect(errors).toHaveLength(1);
    await clock.advanceAndSettle(2000);
    expect(errors).toHaveLength(2);
    expect(await writer.flush()).toBe(true);
    expect(writes.map((write) => write.state)).toEqual([1]);
  });

  it("reports a final state it could not write", async () => {
    const { writer } = setup({ failTimes: 10 });
    writer.update(1);
    expect(await writer.flush(3)).toBe(false);
  });

  it("waits for its turn before taking the latest state; a flush cuts the wait short and asks again as final", async () => {
    const clock = new FakeClock();
    const writes: { state: number; turn: string | undefined }[] = [];
    const turns: { final: boolean; release: (turn: string) => void; signal: AbortSignal }[] = [];
    const writer = new CoalescedWriter<number, string>({
      intervalMs: 2000,
      clock,
      onError: () => undefined,
      turn: ({ final, signal }) =>
        new Promise<string>((resolve, reject) => {
          turns.push({ final, release: resolve, signal });
          signal.addEventListener("abort", () => reject(signal.reason), { once: true });
        }),
      write: async (state, turn) => {
        writes.push({ state, turn });
      },
    });
    writer.update(1);
    await settle();
    // Waiting for a token: every state offered meanwhile goes out as the one write.
    for (let state = 2; state <= 9; state++) writer.update(state);
    await clock.advanceAndSettle(10_000);
    expect(writes).toEqual([]);
    turns[0]?.release("token-1");
    await settle();
    expect(writes).toEqual([{ state: 9, turn: "token-1" }]);
    // The next wait is cut short by the flush, which asks again for the final write.
    writer.update(10);
    await clock.advanceAndSettle(2000);
    expect(turns.map((turn) => turn.final)).toEqual([false, false]);
    writer.update(11);
    const flushed = writer.flush();
    await settle();
    expect(turns[1]?.signal.aborted).toBe(true);
    expect(turns.map((turn) => turn.final)).toEqual([false, false, true]);
    turns[2]?.release("final-token");
    expect(await flushed).toBe(true);
    expect(writes.at(-1)).toEqual({ state: 11, turn: "final-token" });
    expect(writes).toHaveLength(2);
  });

  it("slows down as the stream ages when the interval is a function of its age", async () => {
    const clock = new FakeClock();
    const writes: number[] = [];
    const writer = new CoalescedWriter<number>({
      intervalMs: (age) => Math.max(2000, age / 20),
      clock,
      onError: () => undefined,
      write: async () => {
        writes.push(clock.now());
      },
    });
    const start = clock.now();
    for (let second = 0; second < 300; second++) {
      writer.update(second);
      await clock.advanceAndSettle(1000);
    }
    await writer.flush();
    // A fixed 2 s interval would make ~150 edits in five minutes.
    expect(writes.length).toBeLessThan(70);
    expect(writes.length).toBeGreaterThan(40);
    const lastGap = (writes.at(-2) ?? 0) - (writes.at(-3) ?? 0);
    expect(lastGap).toBeGreaterThanOrEqual(14_000);
    expect((writes[1] ?? 0) - start).toBe(2000);
  });
});
