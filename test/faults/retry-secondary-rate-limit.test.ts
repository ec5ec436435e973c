import { describe, expect, it } from "vitest";
import { retrySecondaryRateLimit } from "../../src/github/retry-secondary-rate-limit.js";

/** An error shaped like Octokit's RequestError. */
function requestError(status: number, message: string, headers: Record<string, string> = {}) {
  return Object.assign(new Error(message), { status, response: { headers } });
}

const SECONDARY = "You have exceeded a secondary rate limit. Please wait a few minutes.";

/** An operation failing with the given errors in turn, then answering `done`. */
function failing(...errors: Error[]) {
  const calls = { count: 0 };
  const operation = async () => {
    const error = errors[calls.count];
    calls.count++;
    if (error !== undefined) throw error;
    return "done";
  };
  return { operation, calls };
}

function recordingSleep() {
  const waits: number[] = [];
  return { waits, sleep: async (milliseconds: number) => void waits.push(milliseconds) };
}

describe("retrySecondaryRateLimit", () => {
  it("waits the Retry-After GitHub gave, then writes again", async () => {
    const { operation, calls } = failing(requestError(403, SECONDARY, { "retry-after": "2" }));
    const { waits, sleep } = recordingSleep();
    await expect(retrySecondaryRateLimit(operation, { sleep })).resolves.toBe("done");
    expect(calls.count).toBe(2);
    expect(waits).toEqual([2000]);
  });

  it("takes a 429 with Retry-After as a secondary limit too", async () => {
    const { operation } = failing(requestError(429, "Too Many Requests", { "retry-after": "1" }));
    const { waits, sleep } = recordingSleep();
    await expect(retrySecondaryRateLimit(operation, { sleep })).resolves.toBe("done");
    expect(waits).toEqual([1000]);
  });

  it("waits a minute when the limit names no wait", async () => {
    const { operation } = failing(requestError(403, SECONDARY));
    const { waits, sleep } = recordingSleep();
    await retrySecondaryRateLimit(operation, { sleep });
    expect(waits).toEqual([60_000]);
  });

  it("rethrows at once what is not a secondary limit: a plain 403, a 500, a non-HTTP error", async () => {
    for (const error of [
      requestError(403, "Resource not accessible by integration"),
      requestError(500, "Server Error", { "retry-after": "1" }),
      new Error("socket hang up"),
    ]) {
      const { operation, calls } = failing(error);
      const { waits, sleep } = recordingSleep();
      await expect(retrySecondaryRateLimit(operation, { sleep })).rejects.toBe(error);
      expect(calls.count).toBe(1);
      expect(waits).toEqual([]);
    }
  });

  it("gives up after its retries, with the last refusal", async () => {
    const errors = [1, 2, 3].map((n) =>
      requestError(403, `${SECONDARY} ${n}`, { "retry-after": "1" }),
    );
    const { operation, calls } = failing(...errors);
    const { waits, sleep } = recordingSleep();
    await expect(retrySecondaryRateLimit(operation, { sleep })).rejects.toBe(errors[2]);
    expect(calls.count).toBe(3);
    expect(waits).toEqual([1000, 1000]);
  });

  it("does not stall on a wait longer than it allows", async () => {
    const error = requestError(403, SECONDARY, { "retry-after": "3600" });
    const { operation, calls } = failing(error);
    const { waits, sleep } = recordingSleep();
    await expect(retrySecondaryRateLimit(operation, { sleep })).rejects.toBe(error);
    expect(calls.count).toBe(1);
    expect(waits).toEqual([]);
  });
});
