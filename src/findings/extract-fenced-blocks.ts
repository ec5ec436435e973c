/** A fenced code block found in markdown, per CommonMark's fence rules. */
export interface FencedBlock {
  /** The first word of the info string, lowercased ("" when none). */
  info: string;
  content: string;
  /** False when the text ended before the closing fence (a cut-off answer). */
  closed: boolean;
  /** Line index of the opening fence. */
  startLine: number;
}

/** The info string's first word: after the fence's whitespace, up to the next whitespace. */
const INFO_WORD_RE = /^\s*([^`\s]*)/;

/**
 * The opening fence a line starts, or null: up to three spaces, a run of three
 * or more backticks or tildes, and no backtick after the run. A hand-written
 * scan, not one regular expression: a pattern such as `\s*([^`\s]*)[^`]*$`
 * backtracks quadratically on a long line that ends in a backtick, and the
 * line is model output, which the pull request can steer.
 */
function openingFence(line: string): { fence: string; info: string } | null {
  let start = 0;
  while (start < 3 && line[start] === " ") start++;
  const char = line[start];
  if (char !== "`" && char !== "~") return null;
  let end = start;
  while (line[end] === char) end++;
  if (end - start < 3) return null;
  const rest = line.slice(end);
  if (rest.includes("`")) return null;
  return {
    fence: line.slice(start, end),
    info: (INFO_WORD_RE.exec(rest)?.[1] ?? "").toLowerCase(),
  };
}

/** A bare run of the open fence's character, at least as long, indented at most three spaces. */
function closesFence(line: string, fence: string): boolean {
  const trimmed = line.trim();
  if (trimmed.length < fence.length || !/^ {0,3}\S/.test(line)) return false;
  const fenceChar = fence[0] ?? "`";
  for (const char of trimmed) if (char !== fenceChar) return false;
  return true;
}

/**
 * Lists the top-level fenced blocks of a markdown text. A fence only closes on
 * a line of the same character at least as long, with no info string, so a
 * "```gadfly-findings" line quoted inside a ```diff block stays content.
 */
export function extractFencedBlocks(text: string): FencedBlock[] {
  const lines = text.split(/\r?\n/);
  const blocks: FencedBlock[] = [];
  let open: { fence: string; info: string; startLine: number; body: string[] } | null = null;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? "";
    if (open === null) {
      const opening = openingFence(line);
      if (opening !== null) open = { ...opening, startLine: index, body: [] };
      continue;
    }
    if (closesFence(line, open.fence)) {
      blocks.push({
        info: open.info,
        content: open.body.join("\n"),
        closed: true,
        startLine: open.startLine,
      });
      open = null;
    } else {
      open.body.push(line);
    }
  }
  if (open !== null) {
    blocks.push({
      info: open.info,
      content: open.body.join("\n"),
      closed: false,
      startLine: open.startLine,
    });
  }
  return blocks;
}
