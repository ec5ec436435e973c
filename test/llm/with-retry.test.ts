import { describe, expect, it } from "vitest";
import { ModelAbortedError, ModelError } from "../../src/llm/errors.js";
import { withRetry } from "../../src/llm/with-retry.js";

/** A sleep that records what it was asked for and returns at once. */
function recordingSleep() {
  const delays: number[] = [];
  return {
    delays,
    sleep: async (milliseconds: number, signal?: AbortSignal) => {
      delays.push(milliseconds);
      if (signal?.aborted) {
        throw new ModelAbortedError();
      }
    },
  };
}

/** An operation failing with the given errors, then answering "ok". */
function failing(...errors: unknown[]) {
  let calls = 0;
  return {
    get calls() {
      return calls;
    },
    operation: async () => {
      const error = errors[calls];
      calls += 1;
      if (error !== undefined) {
        throw error;
      }
      return "ok";
    },
  };
}

const retryable = (status: number, retryAfterMs?: number) =>
  new ModelError(`p: HTTP ${status}`, {
    statusCode: status,
    isRetryable: true,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });

describe("withRetry", () => {
  it("waits exactly what Retry-After asked for, then succeeds", async () => {
    const { delays, sleep } = recordingSleep();
    const script = failing(retryable(429, 2_500));
    await expect(withRetry(script.operation, { sleep })).resolves.toBe("ok");
    expect(delays).toEqual([2_500]);
    expect(script.calls).toBe(2);
  });

  it("backs off exponentially with jitter from the injected random source", async () => {
    const low = recordingSleep();
    await withRetry(failing(retryable(500), retryable(502), retryable(503)).operation, {
      sleep: low.sleep,
      random: () => 0,
      maxAttempts: 4,
      initialDelayMs: 1_000,
    });
    expect(low.delays).toEqual([500, 1_000, 2_000]);

    const high = recordingSleep();
    await withRetry(failing(retryable(500), retryable(502), retryable(503)).operation, {
      sleep: high.sleep,
      random: () => 0.5,
      maxAttempts: 4,
      initialDelayMs: 1_000,
    });
    expect(high.delays).toEqual([750, 1_500, 3_000]);
  });

  it("caps the backoff at maxDelayMs", async () => {
    const { delays, sleep } = recordingSleep();
    await withRetry(failing(retryable(500), retryable(500), retryable(500)).operation, {
      sleep,
      random: () => 0.999,
      maxAttempts: 4,
      initialDelayMs: 1_000,
      maxDelayMs: 1_500,
    });
    expect(delays.every((delay) => delay <= 1_500)).toBe(true);
    expect(delays[2]).toBe(1_499);
  });

  it("gives up after maxAttempts (3 by default) with the last reason", async () => {
    const { delays, sleep } = recordingSleep();
    const script = failing(retryable(500), retryable(500), retryable(500), retryable(500));
    const error = (await withRetry(script.operation, { sleep }).catch(
      (caught: unknown) => caught,
    )) as ModelError;
    expect(script.calls).toBe(3);
    expect(delays).toHaveLength(2);
    expect(error).toBeInstanceOf(ModelError);
    expect(error.message).toBe("p: HTTP 500 (gave up after 3 attempts)");
    expect(error.statusCode).toBe(500);
  });

  it("fails with a reason instead of waiting out a Retry-After above the maximum", async () => {
    const { delays, sleep } = recordingSleep();
    const script = failing(retryable(429, 3_600_000));
    const error = (await withRetry(script.operation, { sleep, maxRetryAfterMs: 60_000 }).catch(
      (caught: unknown) => caught,
    )) as ModelError;
    expect(delays).toEqual([]);
    expect(script.calls).toBe(1);
    expect(error.message).toBe(
      "p: HTTP 429 (the server asked to wait 3600 s before retrying, more than the 60 s allowed)",
    );
    expect(error.statusCode).toBe(429);
  });

  it("does not retry errors that are not retryable, nor foreign errors", async () => {
    const { delays, sleep } = recordingSleep();
    const badRequest = new ModelError("p: HTTP 400", { statusCode: 400 });
    const script = failing(badRequest);
    await expect(withRetry(script.operation, { sleep })).rejects.toBe(badRequest);
    expect(script.calls).toBe(1);

    const bug = new TypeError("a bug");
    await expect(withRetry(failing(bug).operation, { sleep })).rejects.toBe(bug);
    expect(delays).toEqual([]);
  });

  it("never retries an abort, and stops waiting when aborted during the backoff", async () => {
    const { sleep } = recordingSleep();
    const script = failing(new ModelAbortedError());
    await expect(withRetry(script.operation, { sleep })).rejects.toBeInstanceOf(ModelAbortedError);
    expect(script.calls).toBe(1);

    const controller = new AbortController();
    const pending = failing(retryable(503), retryable(503));
    const call = withRetry(pending.operation, {
      signal: controller.signal,
      initialDelayMs: 60_000,
      sleep: (_milliseconds, signal) =>
        new Promise((_resolve, reject) => {
          signal?.addEventListener("abort", () => reject(new ModelAbortedError()));
          controller.abort();
        }),
    });
    await expect(call).rejects.toBeInstanceOf(ModelAbortedError);
    expect(pending.calls).toBe(1);
  });

  it("treats a failure after the signal fired as the abort, not as something to retry", async () => {
    const controller = new AbortController();
    const { delays, sleep } = recordingSleep();
    const call = withRetry(
      async () => {
        controller.abort();
        throw retryable(503);
      },
      { sleep, signal: controller.signal },
    );
    await expect(call).rejects.toBeInstanceOf(ModelAbortedError);
    expect(delays).toEqual([]);
  });
});
