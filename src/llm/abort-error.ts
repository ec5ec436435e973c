import { DeadlineExpiredError } from "../time/index.js";
import { ModelAbortedError, ModelError, ModelTimeoutError } from "./errors.js";

/**
 * The error to throw once `signal` has fired: a timeout reason (`AbortSignal.timeout`)
 * and a deadline that ran out (time/deadline.ts) become ModelTimeoutError, a ModelError reason is kept, anything else is a cancellation.
 */
export function abortError(signal: AbortSignal): ModelError {
  const reason: unknown = signal.reason;
  if (reason instanceof ModelError) {
    return reason;
  }
  if (reason instanceof DeadlineExpiredError) {
    return new ModelTimeoutError(reason.message);
  }
  if (reason instanceof Error && reason.name === "TimeoutError") {
    return new ModelTimeoutError("timed out");
  }
  return new ModelAbortedError();
}
