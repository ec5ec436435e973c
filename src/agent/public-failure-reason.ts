import { isModelError } from "../llm/errors.js";
import { LensFailure } from "./lens-failure.js";

const MAX_REASON_CHARS = 300;

/**
 * Why a lens failed, in words fit for the status board: a model error's public
 * message, our own failure text, or only the kind of an unexpected error (its
 * message could hold a path or a payload).
 */
export function publicFailureReason(error: unknown): string {
  let reason: string;
  if (error instanceof LensFailure) reason = error.message;
  else if (isModelError(error)) reason = error.publicMessage;
  else reason = `internal error (${error instanceof Error ? error.name : typeof error})`;
  const oneLine = reason.replace(/\s+/g, " ").trim();
  return oneLine.length <= MAX_REASON_CHARS
    ? oneLine
    : `${oneLine.slice(0, MAX_REASON_CHARS - 1)}…`;
}
