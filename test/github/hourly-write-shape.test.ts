import { describe, expect, it } from "vitest";
import { hourlyWriteShape } from "../../src/github/hourly-write-shape.js";

describe("hourlyWriteShape", () => {
  it("gives at most the hour's limit in any hour: half as the burst, the rest refilled", () => {
    expect(hourlyWriteShape(500)).toEqual({ capacity: 250, perMinute: 250 / 60 });
    for (const perHour of [2, 3, 7, 500, 5_000]) {
      const shape = hourlyWriteShape(perHour);
      expect(shape.capacity).toBeGreaterThanOrEqual(1);
      expect(shape.perMinute).toBeGreaterThan(0);
      expect(shape.capacity + shape.perMinute * 60).toBeCloseTo(perHour, 9);
    }
    expect(() => hourlyWriteShape(1)).toThrow(RangeError);
  });
});
