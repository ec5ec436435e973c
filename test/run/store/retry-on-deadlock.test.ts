import { describe, expect, it } from "vitest";
import { deadlockRetries, retryOnDeadlock } from "../../../src/run/store/retry-on-deadlock.js";
import { FakeClock } from "../../helpers/fake-clock.js";

/** An error as `pg` reports a transaction chosen as a deadlock's victim. */
const deadlock = () => Object.assign(new Error("deadlock detected"), { code: "40P01" });

describe("retryOnDeadlock", () => {
  it("runs the work again after a deadlock, waiting 100 ms then 200 ms, and returns its result", async () => {
    const clock = new FakeClock();
    let calls = 0;
    const result = retryOnDeadlock(async () => {
      calls += 1;
      if (calls < 3) throw deadlock();
      return "migrated";
    }, deadlockRetries(clock));
    await clock.advanceAndSettle(0);
    expect(calls).toBe(1);
    await clock.advanceAndSettle(99);
    expect(calls).toBe(1);
    await clock.advanceAndSettle(1);
    expect(calls).toBe(2);
    await clock.advanceAndSettle(200);
    await expect(result).resolves.toBe("migrated");
    expect(calls).toBe(3);
  });

  it("gives any other error to the caller at once", async () => {
    let calls = 0;
    const refused = Object.assign(new Error("permission denied"), { code: "42501" });
    await expect(
      retryOnDeadlock(async () => {
        calls += 1;
        throw refused;
      }),
    ).rejects.toBe(refused);
    expect(calls).toBe(1);
  });

  it("gives up after its attempts with the last deadlock", async () => {
    const clock = new FakeClock();
    let calls = 0;
    const result = retryOnDeadlock(
      async () => {
        calls += 1;
        throw deadlock();
      },
      { ...deadlockRetries(clock), attempts: 3 },
    );
    const settled = result.catch((error: unknown) => error);
    await clock.advanceAndSettle(0);
    await clock.advanceAndSettle(100);
    await clock.advanceAndSettle(200);
    expect(await settled).toMatchObject({ code: "40P01" });
    expect(calls).toBe(3);
  });
});
