import { extractFencedBlocks, FINDINGS_FENCE_INFO } from "../findings/index.js";

const VERDICT_LINE_RE = /^[\s>#*_`-]*verdict[*_`]*\s*[:：]/i;

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
