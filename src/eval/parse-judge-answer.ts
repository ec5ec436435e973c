import { JUDGE_FENCE_INFO } from "./judge-prompt.js";

export type JudgeAnswer =
  | { ok: true; same: boolean; reason: string }
  | { ok: false; problem: string };

const BLOCK_RE = new RegExp(
  `(^|\\n)\`{3,}${JUDGE_FENCE_INFO}[ \\t]*\\n([\\s\\S]*?)\\n\`{3,}[ \\t]*(?=\\n|$)`,
  "g",
);
/** More than this in the block is not an answer. */
const MAX_BLOCK_CHARS = 4_096;
const MAX_REASON_CHARS = 300;

/**
 * The judge's answer, read strictly: its last `gadfly-judge` block must be one JSON object
 * whose `same` is a boolean. Anything else is not an answer (the caller counts it as no
 * match, with this problem as the reason): garbage never confirms a hit.
 */
export function parseJudgeAnswer(text: string): JudgeAnswer {
  const blocks = [...text.matchAll(BLOCK_RE)].map((match) => match[2] ?? "");
  const block = blocks.at(-1);
  if (block === undefined) return { ok: false, problem: `no ${JUDGE_FENCE_INFO} block` };
  if (block.length > MAX_BLOCK_CHARS)
    return {
      ok: false,
      problem: `the ${JUDGE_FENCE_INFO} block is over ${MAX_BLOCK_CHARS} characters`,
    };
  let value: unknown;
  try {
    value = JSON.parse(block);
  } catch {
    return { ok: false, problem: `the ${JUDGE_FENCE_INFO} block is not JSON` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { ok: false, problem: `the ${JUDGE_FENCE_INFO} block is not one object` };
  const record = value as Record<string, unknown>;
  if (typeof record.same !== "boolean")
    return { ok: false, problem: '"same" must be true or false' };
  const reason = typeof record.reason === "string" ? record.reason.replace(/\s+/g, " ").trim() : "";
  return {
    ok: true,
    same: record.same,
    reason: reason.length > MAX_REASON_CHARS ? `${reason.slice(0, MAX_REASON_CHARS - 1)}…` : reason,
  };
}
