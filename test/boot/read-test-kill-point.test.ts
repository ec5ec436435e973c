import { describe, expect, it } from "vitest";
import { readTestKillPoint } from "../../src/boot/read-test-kill-point.js";

describe("readTestKillPoint", () => {
  it("is inert unless GADFLY_TEST_KILL_POINT is set", () => {
    expect(readTestKillPoint({})).toBeUndefined();
    expect(readTestKillPoint({ GADFLY_TEST_KILL_POINT: "  " })).toBeUndefined();
  });

  it("refuses a name that is no kill point, naming the ones there are", () => {
    expect(() => readTestKillPoint({ GADFLY_TEST_KILL_POINT: "after-reviw-posted" })).toThrow(
      /GADFLY_TEST_KILL_POINT names no kill point: "after-reviw-posted" \(one of after-check-created, .*after-review-posted/,
    );
  });

  it("does nothing at the other points (the named one SIGKILLs: test/e2e/kill-points.e2e.test.ts)", () => {
    const reached = readTestKillPoint({ GADFLY_TEST_KILL_POINT: "after-board" });
    expect(reached).toBeTypeOf("function");
    // Still alive after every point but the named one.
    for (const point of ["after-check-created", "before-review", "after-check"] as const) {
      reached?.(point);
    }
    expect(process.exitCode ?? 0).toBe(0);
  });
});
