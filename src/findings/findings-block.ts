// The `gadfly-findings` block: finding it, removing it, writing it, and the VERDICT line beside it.
import { extractFencedBlocks } from "./extract-fenced-blocks.js";
import { FINDINGS_FENCE_INFO, type LensFinding } from "./schema.js";

/**
 * The start of a VERDICT line, up to its colon. Anchored and without two
 * quantifiers that can share a character, so it runs in linear time on any
 * line; what follows the colon is read by hand (see `verdictOfLine` in parse.ts).
 */
export const VERDICT_LINE_RE = /^[\s>#*_`-]*verdict[*_`]*\s*[:：]/i;

const FINDINGS_FENCE_RE = new RegExp(`^ {0,3}(?:\`{3,}|~{3,})\\s*${FINDINGS_FENCE_INFO}\\b`, "m");

/** Cheap check used by finalize: does this text open a `gadfly-findings` fence? */
export function containsFindingsBlock(text: string): boolean {
  return FINDINGS_FENCE_RE.test(text);
}

/**
 * A lens answer as people read it: the `gadfly-findings` JSON blocks removed
 * (the findings are published as tables and inline comments), the prose and
 * the VERDICT line kept.
 */
export function removeFindingsBlocks(text: string): string {
  const blocks = extractFencedBlocks(text).filter((block) => block.info === FINDINGS_FENCE_INFO);
  if (blocks.length === 0) return text;
  const lines = text.split(/\r?\n/);
  const drop = new Set<number>();
  for (const block of blocks) {
    const length = block.content === "" ? 0 : block.content.split("\n").length;
    const end = block.closed ? block.startLine + length + 1 : lines.length - 1;
    for (let line = block.startLine; line <= end; line++) drop.add(line);
  }
  return lines
    .filter((_line, index) => !drop.has(index))
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/**
 * The prose of an answer: the text without its findings block (the last
 * `gadfly-findings` fence, or else the last `json` one) and without VERDICT
 * lines. Used for the verification note, whose block we publish as findings.
 */
export function stripFindingsBlock(text: string): string {
  const lines = text.split(/\r?\n/);
  const blocks = extractFencedBlocks(text);
  const block =
    blocks.filter((candidate) => candidate.info === FINDINGS_FENCE_INFO).at(-1) ??
    blocks.filter((candidate) => candidate.info === "json").at(-1);
  let kept = lines;
  if (block !== undefined) {
    kept = [
      ...lines.slice(0, block.startLine),
      ...lines.slice(closingLine(lines, block.startLine) + 1),
    ];
  }
  return kept
    .filter((line) => !VERDICT_LINE_RE.test(line))
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** The index of the line closing the fence opened at `start` (the last line when unclosed). */
function closingLine(lines: readonly string[], start: number): number {
  const fence = /^ {0,3}(`{3,}|~{3,})/.exec(lines[start] ?? "")?.[1] ?? "```";
  const fenceChar = fence[0] ?? "`";
  for (let index = start + 1; index < lines.length; index++) {
    const trimmed = (lines[index] ?? "").trim();
    if (trimmed.length >= fence.length && [...trimmed].every((char) => char === fenceChar))
      return index;
  }
  return lines.length - 1;
}

/**
 * Writes a lens answer in the contract's exact shape: the inverse of
 * parseLensAnswer, used by recordings, the demo and the round-trip test.
 */
export function renderLensAnswer(
  verdict: string,
  findings: readonly LensFinding[],
  prose = "",
): string {
  const entries = findings.map(contractEntry);
  const head = prose.trim() === "" ? "" : `${prose.trim()}\n\n`;
  return `${head}VERDICT: ${verdict}\n\`\`\`${FINDINGS_FENCE_INFO}\n${JSON.stringify(entries, null, 2)}\n\`\`\`\n`;
}

/**
 * A finding as the output contract spells it (snake_case `end_line`), with `lens` for an
 * "Outside my lens" finding; `reportedBy` is ours, never asked of a model.
 */
export function contractEntry(finding: LensFinding): Record<string, unknown> {
  return {
    file: finding.file,
    line: finding.line,
    end_line: finding.endLine,
    severity: finding.severity,
    confidence: finding.confidence,
    title: finding.title,
    body: finding.body,
    ...(finding.lens === undefined ? {} : { lens: finding.lens }),
    ...(finding.suggestion === undefined ? {} : { suggestion: finding.suggestion }),
  };
}
