import { FINDINGS_FENCE_INFO } from "./schema.js";

const FINDINGS_FENCE_RE = new RegExp(`^ {0,3}(?:\`{3,}|~{3,})\\s*${FINDINGS_FENCE_INFO}\\b`, "m");

/** Cheap check used by finalize: does this text open a `gadfly-findings` fence? */
export function containsFindingsBlock(text: string): boolean {
  return FINDINGS_FENCE_RE.test(text);
}
