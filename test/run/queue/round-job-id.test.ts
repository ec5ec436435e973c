import { describe, expect, it } from "vitest";
import { roundJobId } from "../../../src/run/queue/round-job-id.js";

describe("roundJobId", () => {
  it("is the same UUID for the same round and another for another round", () => {
    const id = roundJobId("3f1c2a9e-round");
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(roundJobId("3f1c2a9e-round")).toBe(id);
    expect(roundJobId("3f1c2a9e-round2")).not.toBe(id);
  });
});
