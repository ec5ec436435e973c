// Our own colour codes (SGR) and any other CSI sequence: they take no column.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching escape sequences is the point.
const CSI = /\x1b\[[0-9;?]*[A-Za-z]/y;
const ZERO_WIDTH = /[\p{Mn}\p{Me}\u200b-\u200f\u2060]/u;
const WIDE =
  /[\p{Extended_Pictographic}\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{20000}-\u{3fffd}]/u;

/** The columns a code point takes in a terminal: 0 (combining, joiners), 1 or 2 (wide, emoji). */
function codePointWidth(character: string): number {
  const codePoint = character.codePointAt(0) ?? 0;
  // Variation selectors (U+FE00-FE0F) only choose how the character before them looks.
  if (ZERO_WIDTH.test(character) || (codePoint >= 0xfe00 && codePoint <= 0xfe0f)) return 0;
  // Pictographs below U+2190 (©, ®, ™ …) are one column unless a variation selector asks.
  if (WIDE.test(character)) return codePoint < 0x2190 ? 1 : 2;
  return 1;
}

/** One piece of a line: an escape sequence (no width) or one code point and its columns. */
interface Piece {
  text: string;
  width: number;
}

function pieces(line: string): Piece[] {
  const result: Piece[] = [];
  let index = 0;
  while (index < line.length) {
    CSI.lastIndex = index;
    const sequence = CSI.exec(line);
    if (sequence !== null) {
      result.push({ text: sequence[0], width: 0 });
      index += sequence[0].length;
      continue;
    }
    const character = String.fromCodePoint(line.codePointAt(index) ?? 0);
    result.push({ text: character, width: codePointWidth(character) });
    index += character.length;
  }
  return result;
}

/** The columns `text` takes in a terminal, escape sequences left out. */
export function columnWidth(text: string): number {
  return pieces(text).reduce((total, piece) => total + piece.width, 0);
}

/**
 * Wraps each line of `text` longer than `width` columns at its spaces, continuing under the
 * line's indent (`hangingIndent` gives it, default the line's leading spaces); a word wider than
 * the room left is cut. `width` Infinity (a pipe, a file) leaves the text as it is.
 */
export function wrapText(
  text: string,
  width: number,
  hangingIndent: (line: string) => number = (line) => /^ */.exec(line)?.[0].length ?? 0,
): string {
  if (!Number.isFinite(width)) return text;
  return text
    .split("\n")
    .map((line) => wrapLine(line, Math.max(20, Math.floor(width)), hangingIndent(line)))
    .join("\n");
}

function wrapLine(line: string, width: number, indent: number): string {
  if (columnWidth(line) <= width) return line;
  const continuation: Piece = {
    text: " ".repeat(Math.min(indent, Math.floor(width / 2))),
    width: 0,
  };
  continuation.width = continuation.text.length;
  const out: string[] = [];
  let current: Piece[] = [];
  let currentWidth = 0;
  // The last space of the current line where it may break, as an index into `current`.
  let lastSpace = -1;
  const text = (from: Piece[]) =>
    from
      .map((piece) => piece.text)
      .join("")
      .trimEnd();
  const breakAt = (index: number, skip: number) => {
    out.push(text(current.slice(0, index)));
    const rest = current.slice(index + skip);
    // Spaces at the start of a continuation are the break's, not the text's.
    while (rest[0]?.text === " ") rest.shift();
    current = [continuation, ...rest];
    currentWidth = current.reduce((total, piece) => total + piece.width, 0);
    lastSpace = -1;
  };
  for (const piece of pieces(line)) {
    if (piece.text === " " && currentWidth > continuation.width) lastSpace = current.length;
    current.push(piece);
    currentWidth += piece.width;
    while (currentWidth > width) {
      if (lastSpace > 0) {
        breakAt(lastSpace, 1);
        continue;
      }
      // No space to break at: cut the word where the room ends (at least one character).
      let used = 0;
      let cut = 0;
      while (cut < current.length && used + (current[cut]?.width ?? 0) <= width) {
        used += current[cut]?.width ?? 0;
        cut += 1;
      }
      breakAt(Math.max(cut, current[0] === continuation ? 2 : 1), 0);
    }
  }
  out.push(text(current));
  return out.join("\n");
}

/**
 * How wide this output may be: the terminal's columns on a terminal (80 when it does not say),
 * Infinity when it is a pipe or a file, so a script or a pager gets whole lines.
 */
export function outputWidth(stream: { isTTY?: boolean; columns?: number }): number {
  if (stream.isTTY !== true) return Number.POSITIVE_INFINITY;
  return stream.columns !== undefined && stream.columns > 0 ? stream.columns : 80;
}
