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

const OPEN_RE = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)[^`]*$/;

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
      const match = OPEN_RE.exec(line);
      if (match) {
        open = {
          fence: match[1] ?? "```",
          info: (match[2] ?? "").toLowerCase(),
          startLine: index,
          body: [],
        };
      }
      continue;
    }
    const trimmed = line.trim();
    const fenceChar = open.fence[0] ?? "`";
    if (
      trimmed.length >= open.fence.length &&
      /^ {0,3}\S/.test(line) &&
      [...trimmed].every((char) => char === fenceChar)
    ) {
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
