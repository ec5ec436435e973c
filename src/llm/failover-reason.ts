import { isModelError, ModelAbortedError, type ModelError, ModelTimeoutError } from "./errors.js";
import { EmptyCompletionError } from "./guard-empty-completions.js";

/**
 * Whether a lens that failed with `error` should go on on the next model of its chain, and the
 * short public reason the board shows for the hop (`503`, `empty completion twice`); undefined
 * to stay failed. A model error is one its retries could not fix (a non-retryable status, a
 * missing key, an unusable answer, or a retryable one after the last attempt); a cancellation
 * or the lens's own timeout is not (its time is spent), nor a lens whose model answered but
 * not in the contract's form.
 */
export function failoverReason(failure: unknown): string | undefined {
  const error = modelErrorIn(failure);
  if (error === undefined) return undefined;
  if (error instanceof ModelAbortedError || error instanceof ModelTimeoutError) return undefined;
  if (error instanceof EmptyCompletionError) return "empty completion twice";
  if (error.statusCode !== undefined) return String(error.statusCode);
  // "<provider>: <what happened>": the hop already names the models.
  return error.publicMessage.replace(/^[^:\s]+:\s*/, "");
}

/** The model error itself, or the one a lens failure wraps (a repair turn's): its causes, a few deep. */
function modelErrorIn(error: unknown): ModelError | undefined {
  let current = error;
  for (let depth = 0; depth < 4 && current !== undefined && current !== null; depth++) {
    if (isModelError(current)) return current;
    current = current instanceof Error ? current.cause : undefined;
  }
  return undefined;
}
