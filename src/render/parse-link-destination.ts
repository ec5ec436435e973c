/** Past this many characters a `(…)` is not read as a link's target: the text stays literal. */
export const MAX_LINK_TAIL = 1_000;

const MAX_PARENTHESIS_DEPTH = 32;

export interface LinkTail {
  /** The destination as written (backslash escapes and entities not yet decoded). */
  destination: string;
  /** Index just past the closing `)`. */
  end: number;
}

/**
 * Reads an inline link's `(destination "title")` starting at `open` (a `(`), the
 * CommonMark way: an optional `<…>` or parenthesis-balanced destination, an optional
 * quoted or parenthesised title, then `)`. Null when it is not one. The scan never
 * goes past MAX_LINK_TAIL characters, so a line of many `](` stays linear.
 */
export function parseLinkDestination(line: string, open: number): LinkTail | null {
  if (line.charAt(open) !== "(") return null;
  const limit = Math.min(line.length, open + MAX_LINK_TAIL);
  let index = skipSpaces(line, open + 1, limit);
  let destination: string;
  if (line.charAt(index) === "<") {
    const start = index + 1;
    index = start;
    while (index < limit && line.charAt(index) !== ">") {
      const character = line.charAt(index);
      if (character === "<") return null;
      index += character === "\\" ? 2 : 1;
    }
    if (index >= limit) return null;
    destination = line.slice(start, index);
    index += 1;
  } else {
    const start = index;
    let depth = 0;
    while (index < limit) {
      const character = line.charAt(index);
      if (character === "\\") {
        index += 2;
        continue;
      }
      if (character === " " || character === "\t" || character === "\n") break;
      if (character === "(") {
        // cmark gives up past 32 nested parentheses; so do we, which also ends the scan early.
        depth += 1;
        if (depth > MAX_PARENTHESIS_DEPTH) return null;
      }
      if (character === ")") {
        if (depth === 0) break;
        depth -= 1;
      }
      index += 1;
    }
    if (depth !== 0 || index > limit) return null;
    destination = line.slice(start, index);
  }
  const afterDestination = index;
  index = skipSpaces(line, index, limit);
  const quote = line.charAt(index);
  if (index > afterDestination && (quote === '"' || quote === "'" || quote === "(")) {
    const closer = quote === "(" ? ")" : quote;
    index += 1;
    while (index < limit && line.charAt(index) !== closer) {
      index += line.charAt(index) === "\\" ? 2 : 1;
    }
    if (index >= limit) return null;
    index = skipSpaces(line, index + 1, limit);
  }
  if (index >= limit || line.charAt(index) !== ")") return null;
  return { destination, end: index + 1 };
}

function skipSpaces(line: string, from: number, limit: number): number {
  let index = from;
  while (index < limit && (line.charAt(index) === " " || line.charAt(index) === "\t")) index += 1;
  return index;
}
