import { extractFencedBlocks } from "./extract-fenced-blocks.js";
import { parseLenientJson } from "./parse-lenient-json.js";

/** The info string of a cross-examination answer's block. */
export const CHALLENGE_FENCE_INFO = "gadfly-challenge";

export type ChallengeVerdict = "confirm" | "refute" | "unsure";

/** What a challenger said about another model's finding, as read from its answer. */
export interface ChallengeAnswer {
  verdict: ChallengeVerdict;
  /** Why, in the challenger's words (untrusted: escaped wherever it is shown). */
  reason: string;
  /** The place it checked, `path:line`, or null when it named none. */
  checked: string | null;
}

export type ChallengeParse =
  | { ok: true; answer: ChallengeAnswer; notes: string[] }
  | { ok: false; problem: string };

/** A reason is shown beside the finding: long enough for evidence, never a wall. */
export const MAX_CHALLENGE_REASON_CHARS = 1_000;
const MAX_CHECKED_CHARS = 300;
/** More text than this in one block is not an answer; JSON.parse on it is wasted work. */
const MAX_BLOCK_CHARS = 16 * 1024;

const VERDICT_ALIASES: Readonly<Record<string, ChallengeVerdict>> = {
  confirm: "confirm",
  confirmed: "confirm",
  agree: "confirm",
  valid: "confirm",
  refute: "refute",
  refuted: "refute",
  reject: "refute",
  disagree: "refute",
  invalid: "refute",
  "false-positive": "refute",
  false_positive: "refute",
  unsure: "unsure",
  uncertain: "unsure",
  unknown: "unsure",
  inconclusive: "unsure",
};

const CHECKED_RE = /^[^\s:][^\n]*:\d+(?:-\d+)?$/;

/**
 * Reads a cross-examination answer: its last `gadfly-challenge` block (else the last
 * `json` block holding a `verdict`), lenient about how models write JSON and strict about
 * meaning. A confirmation or a refutation must name the place it checked (`path:line`):
 * without evidence it counts as `unsure`, said in `notes`. No readable block is a failure
 * (the caller repairs once, then the challenge fails: it never counts either way).
 */
export function parseChallengeAnswer(text: string): ChallengeParse {
  const blocks = extractFencedBlocks(text);
  const block =
    blocks.findLast((candidate) => candidate.info === CHALLENGE_FENCE_INFO) ??
    blocks.findLast(
      (candidate) => candidate.info === "json" && candidate.content.includes('"verdict"'),
    );
  if (block === undefined) return { ok: false, problem: `no ${CHALLENGE_FENCE_INFO} block` };
  if (block.content.length > MAX_BLOCK_CHARS) {
    return {
      ok: false,
      problem: `the ${CHALLENGE_FENCE_INFO} block is over ${MAX_BLOCK_CHARS} characters`,
    };
  }
  let value: unknown;
  try {
    value = parseLenientJson(block.content);
  } catch {
    return { ok: false, problem: `the ${CHALLENGE_FENCE_INFO} block is not JSON` };
  }
  if (Array.isArray(value) && value.length === 1) value = value[0];
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ok: false, problem: `the ${CHALLENGE_FENCE_INFO} block is not one object` };
  }
  const record = value as Record<string, unknown>;
  const rawVerdict = typeof record.verdict === "string" ? record.verdict : "";
  const verdict = VERDICT_ALIASES[rawVerdict.trim().toLowerCase().replace(/\s+/g, "-")];
  if (verdict === undefined) {
    return { ok: false, problem: 'verdict must be "confirm", "refute" or "unsure"' };
  }
  const notes: string[] = [];
  const reason = oneLine(typeof record.reason === "string" ? record.reason : "");
  const checked = checkedPlace(record.checked);
  if (verdict !== "unsure" && checked === null) {
    notes.push(`a ${verdict} without the place it checked counts as unsure`);
    return { ok: true, answer: { verdict: "unsure", reason, checked }, notes };
  }
  return { ok: true, answer: { verdict, reason, checked }, notes };
}

function checkedPlace(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const place = value.trim().replace(/^`|`$/g, "");
  if (place.length === 0 || place.length > MAX_CHECKED_CHARS) return null;
  return CHECKED_RE.test(place) ? place : null;
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length <= MAX_CHALLENGE_REASON_CHARS
    ? line
    : `${line.slice(0, MAX_CHALLENGE_REASON_CHARS - 1)}…`;
}
