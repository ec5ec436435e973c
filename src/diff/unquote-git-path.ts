const QUOTE = 34;
const BACKSLASH = 92;

const SIMPLE_ESCAPES: Record<string, number> = {
  a: 7,
  b: 8,
  t: 9,
  n: 10,
  v: 11,
  f: 12,
  r: 13,
  '"': 34,
  "\\": 92,
};

/** A decoded quoted path and the index just past its closing quote. */
export interface UnquotedPath {
  value: string;
  end: number;
}

/**
 * Decodes a C-style quoted path as git writes it (`"a/sp\303\251cial name.ts"`) starting at
 * `start` (which must be the opening quote). Octal escapes are bytes of UTF-8 and are decoded as
 * such (invalid sequences become U+FFFD). Returns null when the text is not a well-formed quoted
 * string.
 */
export function unquoteGitPath(text: string, start = 0): UnquotedPath | null {
  if (text.charCodeAt(start) !== QUOTE) return null;
  let value = "";
  let bytes: number[] = [];
  let literalFrom = start + 1;
  let position = start + 1;
  const flushBytes = (): void => {
    if (bytes.length > 0) {
      value += Buffer.from(bytes).toString("utf8");
      bytes = [];
    }
  };
  while (position < text.length) {
    const code = text.charCodeAt(position);
    if (code === QUOTE) {
      flushBytes();
      value += text.slice(literalFrom, position);
      return { value, end: position + 1 };
    }
    if (code !== BACKSLASH) {
      position++;
      continue;
    }
    if (position > literalFrom) {
      flushBytes();
      value += text.slice(literalFrom, position);
    }
    const escaped = text.charAt(position + 1);
    const simple = SIMPLE_ESCAPES[escaped];
    if (simple !== undefined) {
      // Keep simple escapes in the byte run: they may sit between the bytes of one character.
      bytes.push(simple);
      position += 2;
    } else if (isOctalDigits(text, position + 1)) {
      bytes.push(Number.parseInt(text.slice(position + 1, position + 4), 8) & 0xff);
      position += 4;
    } else {
      return null;
    }
    literalFrom = position;
  }
  return null;
}

function isOctalDigits(text: string, start: number): boolean {
  for (let index = start; index < start + 3; index++) {
    const code = text.charCodeAt(index);
    if (!(code >= 48 && code <= 55)) return false;
  }
  return true;
}
