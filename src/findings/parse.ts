import { extractFencedBlocks, type FencedBlock } from "./extract-fenced-blocks.js";
import { VERDICT_LINE_RE } from "./findings-block.js";
import { normalizeFinding } from "./normalize-finding.js";
import { decideOutsideLens, type LensContext } from "./outside-lens.js";
import { parseLenientJson } from "./parse-lenient-json.js";
import { CONFIDENCE_RANK, FINDINGS_FENCE_INFO, type LensFinding, SEVERITY_RANK } from "./schema.js";

/**
 * Findings one lens answer may contribute. Model output is hostile (the pull
 * request can make a model emit anything), and everything after the parse
 * (verification, clustering, rendering) grows with this number. An honest
 * review of one lens rarely has more than a dozen.
 */
export const MAX_FINDINGS_PER_LENS = 50;

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
  /** Valid findings beyond MAX_FINDINGS_PER_LENS, left out of `findings` (see `keepMostSevere`). */
  overLimit: number;
  /**
   * Valid entries the "Outside my lens" rule left out (a second one, or one below medium),
   * one line each ("finding 3 (src/a.ts:12): ignored: …"): counted and shown, never silent.
   */
  ignored: string[];
}

/** Characters `.` does not match: a VERDICT line's text never holds one. */
const LINE_BREAK_RE = /[\r\u2028\u2029]/;
/**
 * A bare trailing array longer than this is not looked for: 50 findings of
 * generous size fit many times over, and each attempt re-reads the array.
 */
const MAX_BARE_ARRAY_CHARS = 512 * 1024;

/**
 * Parses what a lens answered: the contract is a `VERDICT:` line and a fenced
 * `gadfly-findings` JSON array, as agent/review-contract.ts asks the model for.
 * Lenient about form (a `json` fence, a bare trailing array, camelCase keys,
 * trailing commas, aliases), strict about meaning: nothing is invented, and no
 * block means `findings: null`.
 * With several blocks (a review, then its verification) the last one is the answer.
 *
 * With `context` (the answering lens), an entry whose `lens` names another lens is an
 * "Outside my lens" finding (outside-lens.ts): attributed to that lens, at most one per
 * answer, high or medium only. Without it (the verification pass, whose survivors are the
 * review's own findings), the `lens` field is not read.
 */
export function parseLensAnswer(text: string, context?: LensContext): LensAnswer {
  const problems: string[] = [];
  const ignored: string[] = [];
  const blocks = extractFencedBlocks(text);
  const verdict = findVerdict(text, blocks);
  const raw = findFindingsArray(text, blocks, problems);
  if (raw === null) return { verdict, findings: null, problems, overLimit: 0, ignored };

  const findings: LensFinding[] = [];
  const seen = new Set<string>();
  let outside = 0;
  raw.forEach((entry, index) => {
    const result = normalizeFinding(entry, index);
    if ("problem" in result) {
      problems.push(result.problem);
      return;
    }
    let { finding } = result;
    if (result.note !== undefined) problems.push(result.note);
    const where = `finding ${index + 1} (${finding.file}:${finding.line})`;
    const key = `${finding.file}\u0000${finding.line}\u0000${finding.title.toLowerCase()}`;
    if (seen.has(key)) {
      problems.push(
        `finding ${index + 1}: duplicate of an earlier finding (${finding.file}:${finding.line})`,
      );
      return;
    }
    if (context !== undefined && result.lens !== undefined) {
      const decision = decideOutsideLens(finding, result.lens, context, outside);
      if (decision.kind === "ignored") {
        ignored.push(`${where}: ${decision.reason}`);
        return;
      }
      if (decision.kind === "outside") outside++;
      // Worded so as not to start with "finding N": the entry was kept, not rejected.
      else if (decision.note !== undefined) problems.push(`${decision.note} (${where})`);
      finding = decision.finding;
    }
    seen.add(key);
    findings.push(finding);
  });
  const kept = keepMostSevere(findings, MAX_FINDINGS_PER_LENS);
  return { verdict, findings: kept, problems, overLimit: findings.length - kept.length, ignored };
}

/**
 * At most `limit` findings: the most severe, then the most confident, then the
 * first written, kept in the order the model wrote them. By severity rather
 * than first-come so that an answer padded with nits (by a confused model, or
 * by a pull request steering it) cannot push a high-severity finding out.
 * Deterministic: the order is total.
 */
export function keepMostSevere(findings: readonly LensFinding[], limit: number): LensFinding[] {
  if (findings.length <= limit) return [...findings];
  const chosen = findings
    .map((finding, position) => ({ finding, position }))
    .sort(
      (a, b) =>
        SEVERITY_RANK[b.finding.severity] - SEVERITY_RANK[a.finding.severity] ||
        CONFIDENCE_RANK[b.finding.confidence] - CONFIDENCE_RANK[a.finding.confidence] ||
        a.position - b.position,
    )
    .slice(0, limit)
    .sort((a, b) => a.position - b.position);
  return chosen.map(({ finding }) => finding);
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
  const earliest = trimmed.length - MAX_BARE_ARRAY_CHARS;
  for (
    let start = trimmed.lastIndexOf("[");
    start >= 0 && start >= earliest && attempts < 64;
    attempts++
  ) {
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
  // Lines from each block's opening fence to its closing one, walked backwards with the lines.
  const fenced = blocks.map((block) => ({
    first: block.startLine,
    last: block.startLine + lineCount(block.content) + 1,
  }));
  let next = fenced.length - 1;
  for (let index = lines.length - 1; index >= 0; index--) {
    while (next >= 0 && (fenced[next]?.first ?? 0) > index) next--;
    if (next >= 0 && index <= (fenced[next]?.last ?? -1)) continue;
    const stated = verdictOfLine(lines[index] ?? "");
    if (stated !== null) {
      const verdict = stripDecoration(stated);
      if (verdict !== "") return verdict;
    }
  }
  return null;
}

/** Lines of a block's content (0 when empty), counted without splitting it again. */
function lineCount(content: string): number {
  if (content === "") return 0;
  let count = 1;
  for (let at = content.indexOf("\n"); at !== -1; at = content.indexOf("\n", at + 1)) count++;
  return count;
}

/** The text after a VERDICT line's colon, or null when the line is not one. */
function verdictOfLine(line: string): string | null {
  const lead = VERDICT_LINE_RE.exec(line);
  if (lead === null) return null;
  const text = line.slice(lead[0].length).trimStart();
  return LINE_BREAK_RE.test(text) ? null : text;
}

/**
 * Drops emphasis marks, a closing ATX `#` run and trailing dots. Trimmed by
 * hand from the end: an unanchored `[.\s]+$` retries from every position of a
 * long run of dots or spaces, which is quadratic on a hostile line.
 */
function stripDecoration(text: string): string {
  let result = text.replace(/[*_`]+/g, "").trimEnd();
  let end = result.length;
  while (end > 0 && result[end - 1] === "#") end--;
  if (end < result.length && end > 0 && /\s/.test(result[end - 1] ?? "")) {
    result = result.slice(0, end);
  }
  end = result.length;
  while (end > 0 && /[.\s]/.test(result[end - 1] ?? "")) end--;
  return result.slice(0, end).trim();
}
