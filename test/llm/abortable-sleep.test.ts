import { describe, expect, it } from "vitest";
import { abortableSleep } from "../../src/llm/abortable-sleep.js";
import { ModelAbortedError, ModelTimeoutError } from "../../src/llm/errors.js";

describe("abortableSleep", () => {
  it("resolves after the delay", async () => {
    await expect(abortableSleep(5)).resolves.toBeUndefined();
  });

  it("rejects at once when the signal fires during the wait", async () => {
    const controller = new AbortController();
    const started = Date.now();
    const sleeping = abortableSleep(60_000, controller.signal);
    setTimeout(() => controller.abort(), 5);
    await expect(sleeping).rejects.toBeInstanceOf(ModelAbortedError);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("rejects before waiting when already aborted, as a timeout when that was the reason", async () => {
    await expect(abortableSleep(60_000, AbortSignal.abort())).rejects.toBeInstanceOf(
      ModelAbortedError,
    );
    const timedOut = AbortSignal.timeout(1);
    await new Promise((resolve) => setTimeout(resolve, 10));
    await expect(abortableSleep(60_000, timedOut)).rejects.toBeInstanceOf(ModelTimeoutError);
  });
});
