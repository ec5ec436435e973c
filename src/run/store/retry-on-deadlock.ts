import { type RetryPolicy, retryPolicy } from "../../time/index.js";

/** PostgreSQL's SQLSTATE for a transaction chosen as a deadlock's victim (and rolled back). */
const DEADLOCK_DETECTED = "40P01";

/**
 * Runs `work` again when PostgreSQL chose it as a deadlock's victim: its transaction was rolled
 * back whole, so trying again is what the server's manual prescribes. Processes of a deployment
 * starting together on an empty database set up the same schema and pg-boss's queue at once,
 * and pg-boss's setup can deadlock against another process's maintenance. Waits a little longer
 * each time (100, 200, 400 ms…); any other error, or the last deadlock, goes to the caller.
 */
export async function retryOnDeadlock<T>(
  work: () => Promise<T>,
  policy: RetryPolicy = deadlockRetries(),
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= policy.attempts || !isDeadlock(error)) throw error;
      await policy.wait(attempt);
    }
  }
}

/** Five tries, 100 ms after the first deadlock and twice as long after each next one. */
export function deadlockRetries(clock?: Parameters<typeof retryPolicy>[3]): RetryPolicy {
  return retryPolicy(5, 100, "doubling", clock);
}

function isDeadlock(error: unknown): boolean {
  return (
    typeof error === "object" &&
    error !== null &&
    "code" in error &&
    (error as { code: unknown }).code === DEADLOCK_DETECTED
  );
}
