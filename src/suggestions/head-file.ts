/** A head file split into lines, each with its own line ending, as applying a change keeps them. */
export interface HeadFile {
  lines: string[];
  /** Each line's ending: "\r\n", "\n", or "" for a last line without one. */
  endings: string[];
  /** The file's line ending: CRLF when most of its line breaks are, else LF. */
  eol: "\n" | "\r\n";
}

/** Splits a file's text into its lines and their endings. */
export function headFile(text: string): HeadFile {
  const lines: string[] = [];
  const endings: string[] = [];
  let crlf = 0;
  let start = 0;
  while (start < text.length) {
    const at = text.indexOf("\n", start);
    if (at === -1) {
      lines.push(text.slice(start));
      endings.push("");
      break;
    }
    const cr = at > start && text[at - 1] === "\r";
    if (cr) crlf++;
    lines.push(text.slice(start, cr ? at - 1 : at));
    endings.push(cr ? "\r\n" : "\n");
    start = at + 1;
  }
  const breaks = endings.filter((ending) => ending !== "").length;
  return { lines, endings, eol: crlf * 2 > breaks ? "\r\n" : "\n" };
}

/** Whether the file's last line ends without a line break. */
export function lacksFinalNewline(head: HeadFile): boolean {
  return head.endings.at(-1) === "";
}

/**
 * The file with lines `line..endLine` replaced by `replacement`, as GitHub commits a suggestion:
 * every other line and its ending kept byte for byte, the new lines ending as the file's do, and
 * a file whose last line had no line break still ending without one.
 */
export function applyReplacement(
  head: HeadFile,
  line: number,
  endLine: number,
  replacement: readonly string[],
): string {
  const lastEnding = head.endings[endLine - 1] ?? head.eol;
  const fresh = replacement.map(
    (text, index) => text + (index === replacement.length - 1 ? lastEnding : head.eol),
  );
  const kept = (from: number, to: number) =>
    head.lines
      .slice(from, to)
      .map((text, index) => text + (head.endings[from + index] ?? ""))
      .join("");
  return kept(0, line - 1) + fresh.join("") + kept(endLine, head.lines.length);
}

/**
 * The replacement's lines: CRLF or LF, one trailing line break dropped (it ends the last line);
 * "" is no line at all (the lines are deleted). Null when it holds a lone carriage return, which
 * no line of a file can carry.
 */
export function replacementLines(text: string): string[] | null {
  const normalized = text.replace(/\r\n/g, "\n");
  if (normalized.includes("\r")) return null;
  if (normalized === "") return [];
  return (normalized.endsWith("\n") ? normalized.slice(0, -1) : normalized).split("\n");
}
