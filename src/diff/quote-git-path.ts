const LETTER_ESCAPES: Record<number, string> = {
  7: "\\a",
  8: "\\b",
  9: "\\t",
  10: "\\n",
  11: "\\v",
  12: "\\f",
  13: "\\r",
  34: '\\"',
  92: "\\\\",
};

export interface QuoteGitPathOptions {
  /** Escape non-ASCII bytes as octal, like git's default `core.quotePath=true`. Default true. */
  quoteNonAscii?: boolean;
}

/**
 * Quotes a path the way git does in diff headers: unchanged unless it holds a control character,
 * `"` or `\` (or non-ASCII with `quoteNonAscii`), in which case it is C-quoted with octal escapes
 * for the UTF-8 bytes. Spaces never cause quoting (git marks them with a tab on `---`/`+++`).
 */
export function quoteGitPath(path: string, options: QuoteGitPathOptions = {}): string {
  const quoteNonAscii = options.quoteNonAscii ?? true;
  if (!needsQuoting(path, quoteNonAscii)) return path;
  let quoted = '"';
  for (const character of path) {
    const code = character.charCodeAt(0);
    const letter = LETTER_ESCAPES[code];
    if (letter !== undefined) {
      quoted += letter;
    } else if (code < 0x20 || code === 0x7f || (quoteNonAscii && code >= 0x80)) {
      for (const byte of Buffer.from(character, "utf8")) {
        quoted += `\\${byte.toString(8).padStart(3, "0")}`;
      }
    } else {
      quoted += character;
    }
  }
  return `${quoted}"`;
}

function needsQuoting(path: string, quoteNonAscii: boolean): boolean {
  for (let index = 0; index < path.length; index++) {
    const code = path.charCodeAt(index);
    if (code < 0x20 || code === 0x22 || code === 0x5c || code === 0x7f) return true;
    if (quoteNonAscii && code >= 0x80) return true;
  }
  return false;
}
