import { describe, expect, it } from "vitest";
import { createInMemoryModelCallLimiter } from "../../../src/llm/limits/in-memory-model-call-limiter.js";
import { settle } from "../../helpers/fake-clock.js";

describe("createInMemoryModelCallLimiter", () => {
  it("holds each provider to its own cap and hands slots on in arrival order", async () => {
    const limiter = createInMemoryModelCallLimiter((provider) => (provider === "openai" ? 2 : 1));
    const first = await limiter.acquire("openai");
    await limiter.acquire("openai");
    const other = await limiter.acquire("ollama-cloud");
    const order: string[] = [];
    const third = limiter.acquire("openai").then((slot) => {
      order.push("third");
      return slot;
    });
    const fourth = limiter.acquire("openai").then((slot) => {
      order.push("fourth");
      return slot;
    });
    await settle();
    expect(order).toEqual([]);
    await first.release();
    await first.release(); // twice is once
    await settle();
    expect(order).toEqual(["third"]);
    await (await third).release();
    await (await fourth).release();
    expect(order).toEqual(["third", "fourth"]);
    await other.release();
  });

  it("drops a waiter whose signal aborts, without losing a slot", async () => {
    const limiter = createInMemoryModelCallLimiter(() => 1);
    const held = await limiter.acquire("openai");
    const controller = new AbortController();
    const abandoned = limiter.acquire("openai", controller.signal);
    controller.abort(new Error("round cancelled"));
    await expect(abandoned).rejects.toThrow("round cancelled");
    await held.release();
    const next = await limiter.acquire("openai");
    await next.release();
    await expect(limiter.acquire("openai", AbortSignal.abort(new Error("no")))).rejects.toThrow(
      "no",
    );
  });

  it("rejects waiting and later calls once closed", async () => {
    const limiter = createInMemoryModelCallLimiter(() => 1);
    await limiter.acquire("openai");
    const waiting = limiter.acquire("openai");
    await limiter.close();
    await expect(waiting).rejects.toThrow(/closed/);
    await expect(limiter.acquire("ollama-cloud")).rejects.toThrow(/closed/);
  });
});
