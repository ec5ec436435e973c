import { extractFencedBlocks } from "./extract-fenced-blocks.js";
import { FINDINGS_FENCE_INFO } from "./schema.js";

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
