import { extractFencedBlocks, type FencedBlock } from "./extract-fenced-blocks.js";
import { normalizeFinding } from "./normalize-finding.js";
import { parseLenientJson } from "./parse-lenient-json.js";
import { FINDINGS_FENCE_INFO, type LensFinding } from "./schema.js";

export interface LensAnswer {
  /** The VERDICT line's text without markdown decoration, or null when there is none. */
  verdict: string | null;
  /**
   * The findings of the answer's block. Null when no block could be parsed:
   * such a lens has not answered and must never be reported clean.
   */
  findings: LensFinding[] | null;
  /** What was wrong with the input, one line each (rejected entries, repairs). */
  problems: string[];
}

const VERDICT_RE = /^[\s>#*_`-]*verdict[*_`]*\s*[:：]\s*(.+)$/i;

/**
 * Parses what a lens answered: the contract is a `VERDICT:` line and a fenced
 * `gadfly-findings` JSON array (DESIGN.md). Lenient about form (a `json` fence,
 * a bare trailing array, camelCase keys, trailing commas, aliases), strict
 * about meaning: nothing is invented, and no block means `findings: null`.
 * With several blocks (a review, then its verification) the last one is the answer.
 */
export function parseLensAnswer(text: string): LensAnswer {
  const problems: string[] = [];
  const blocks = extractFencedBlocks(text);
  const verdict = findVerdict(text, blocks);
  const raw = findFindingsArray(text, blocks, problems);
  if (raw === null) return { verdict, findings: null, problems };

  const findings: LensFinding[] = [];
  const seen = new Set<string>();
  raw.forEach((entry, index) => {
    const result = normalizeFinding(entry, index);
    if ("problem" in result) {
      problems.push(result.problem);
      return;
    }
    const { finding } = result;
    const key = `${finding.file}\u0000${finding.line}\u0000${finding.title.toLowerCase()}`;
    if (seen.has(key)) {
      problems.push(
        `finding ${index + 1}: duplicate of an earlier finding (${finding.file}:${finding.line})`,
      );
      return;
    }
    seen.add(key);
    findings.push(finding);
  });
  return { verdict, findings, problems };
}

function findFindingsArray(
  text: string,
  blocks: FencedBlock[],
  problems: string[],
): unknown[] | null {
  const named = blocks.filter((block) => block.info === FINDINGS_FENCE_INFO);
  const last = named.at(-1);
  if (last !== undefined) {
    if (!last.closed) problems.push(`the ${FINDINGS_FENCE_INFO} block is not closed`);
    const array = toArray(last.content, problems, `the ${FINDINGS_FENCE_INFO} block`);
    if (array !== null) return array;
    return null;
  }
  // Fallbacks, in order of how clearly the model meant it: a json fence, then a bare trailing array.
  for (const block of [...blocks].reverse()) {
    if (block.info !== "json" && block.info !== "") continue;
    const array = toArray(block.content, [], "");
    if (array !== null && looksLikeFindings(array)) {
      problems.push(
        `findings were in a \`${block.info || "plain"}\` fence, not \`${FINDINGS_FENCE_INFO}\``,
      );
      return array;
    }
  }
  const bare = trailingArray(text);
  if (bare !== null) {
    problems.push(`findings were a bare array, not a \`${FINDINGS_FENCE_INFO}\` block`);
    return bare;
  }
  problems.push(`no \`${FINDINGS_FENCE_INFO}\` block found`);
  return null;
}

function toArray(content: string, problems: string[], what: string): unknown[] | null {
  let value: unknown;
  try {
    value = parseLenientJson(content.trim() === "" ? "[]" : content);
  } catch (error) {
    problems.push(`${what} is not valid JSON: ${(error as Error).message}`);
    return null;
  }
  if (Array.isArray(value)) return value;
  if (
    typeof value === "object" &&
    value !== null &&
    Array.isArray((value as { findings?: unknown }).findings)
  ) {
    return (value as { findings: unknown[] }).findings;
  }
  problems.push(`${what} is not a JSON array`);
  return null;
}

function looksLikeFindings(array: unknown[]): boolean {
  return array.every(
    (entry) =>
      typeof entry === "object" &&
      entry !== null &&
      Object.keys(entry).some((key) => /^(file|path|filename)$/i.test(key)),
  );
}

/** A JSON array that ends the text (outside any fence), e.g. `[{"file": …}]` after the prose. */
function trailingArray(text: string): unknown[] | null {
  const trimmed = text.trimEnd();
  if (!trimmed.endsWith("]")) return null;
  let attempts = 0;
  for (let start = trimmed.lastIndexOf("["); start >= 0 && attempts < 64; attempts++) {
    const candidate = trimmed.slice(start);
    try {
      const value = parseLenientJson(candidate);
      if (
        Array.isArray(value) &&
        (value.length === 0 ? /^\[\s*\]$/.test(candidate) : looksLikeFindings(value))
      ) {
        return value;
      }
    } catch {
      // Not yet the opening bracket of the array: look further back.
    }
    start = trimmed.lastIndexOf("[", start - 1);
  }
  return null;
}

function findVerdict(text: string, blocks: FencedBlock[]): string | null {
  const lines = text.split(/\r?\n/);
  const insideFence = new Set<number>();
  for (const block of blocks) {
    const length = block.content === "" ? 0 : block.content.split("\n").length;
    for (let line = block.startLine; line <= block.startLine + length + 1; line++)
      insideFence.add(line);
  }
  for (let index = lines.length - 1; index >= 0; index--) {
    if (insideFence.has(index)) continue;
    const match = VERDICT_RE.exec(lines[index] ?? "");
    if (match?.[1] !== undefined) {
      const verdict = stripDecoration(match[1]);
      if (verdict !== "") return verdict;
    }
  }
  return null;
}

function stripDecoration(text: string): string {
  return text
    .replace(/[*_`]+/g, "")
    .replace(/\s+#+\s*$/, "")
    .replace(/[.\s]+$/, "")
    .trim();
}
