import { describe, expect, it } from "vitest";
import { RoundRegistry } from "../../src/github/round-registry.js";

const never = new Promise<void>(() => undefined);

describe("RoundRegistry", () => {
  it("stops a running round with the first reason given, aborting its signal with a publishable message", () => {
    const registry = new RoundRegistry();
    const { signal, stopReason } = registry.register("r1", never);
    registry.stop("r1", { kind: "cancelled", reason: "cancelled by an operator" });
    registry.stop("r1", { kind: "shutdown" });
    expect(stopReason()).toEqual({ kind: "cancelled", reason: "cancelled by an operator" });
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe("cancelled by an operator");
  });

  it("says who superseded a round, by its short SHA", () => {
    const registry = new RoundRegistry();
    const { signal, stopReason } = registry.register("r1", never);
    registry.supersede("r1", "0123456789abcdef0123456789abcdef01234567");
    expect(stopReason()).toEqual({
      kind: "superseded",
      by: "0123456789abcdef0123456789abcdef01234567",
    });
    expect(signal.reason).toBe("superseded by 0123456");
  });

  it("keeps a stop that arrives before the round registers, and applies it when it does", () => {
    const registry = new RoundRegistry();
    registry.stop("r1", { kind: "lost" });
    const { signal, stopReason } = registry.register("r1", never);
    expect(stopReason()).toEqual({ kind: "lost" });
    expect(signal.aborted).toBe(true);
    // Applied once: the next registration of the same round starts clean.
    expect(registry.register("r1", never).stopReason()).toBeNull();
  });

  it("forgets an early stop that is discarded", () => {
    const registry = new RoundRegistry();
    registry.stop("r1", { kind: "cancelled", reason: "gone" });
    registry.discard("r1");
    expect(registry.register("r1", never).signal.aborted).toBe(false);
  });

  it("forgets a round once it is done", async () => {
    const registry = new RoundRegistry();
    let finish: () => void = () => undefined;
    registry.register(
      "r1",
      new Promise<void>((resolve) => {
        finish = resolve;
      }),
    );
    expect(registry.has("r1")).toBe(true);
    finish();
    await new Promise((resolve) => setImmediate(resolve));
    expect(registry.has("r1")).toBe(false);
  });

  it("close refuses new rounds without stopping the running ones; shutdown stops them too", async () => {
    const registry = new RoundRegistry();
    const running = registry.register("r1", Promise.resolve());
    registry.close();
    expect(registry.accepting).toBe(false);
    expect(running.signal.aborted).toBe(false);
    await registry.shutdown(0);
    expect(running.stopReason()).toEqual({ kind: "shutdown" });
  });
});
