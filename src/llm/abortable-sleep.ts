import { sleep } from "../time/index.js";
import { abortError } from "./abort-error.js";

/** time's `sleep`, rejecting early with the abort's ModelError when `signal` fires (for retries). */
export function abortableSleep(milliseconds: number, signal?: AbortSignal): Promise<void> {
  if (signal === undefined) return sleep(milliseconds);
  return sleep(milliseconds, { signal }).catch(() => {
    throw abortError(signal);
  });
}
