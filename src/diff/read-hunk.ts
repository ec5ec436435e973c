import type { DiffFile, DiffHunk, DiffLine } from "./diff-file.js";
import { DiffParseError } from "./diff-parse-error.js";
import type { LineCursor } from "./line-cursor.js";

const SPACE = 32;
const PLUS = 43;
const MINUS = 45;
const BACKSLASH = 92;
const AT = 64;
const COMMA = 44;
const DIGIT_0 = 48;
const DIGIT_9 = 57;

/**
 * Reads the hunk whose `@@` header is the cursor's current line, appends it to `file` and updates
 * the file's counts. Leaves the cursor on the hunk's last line (a trailing `\ No newline` marker
 * included). The body is delimited by the header's counts, never by what a line looks like, so a
 * deleted line reading `-- x` or an added `++ y` is not mistaken for a file header.
 */
export function readHunk(cursor: LineCursor, file: DiffFile): void {
  const hunk = parseHunkHeader(cursor);
  const text = cursor.text;
  const lines = hunk.lines;
  let oldRemaining = hunk.oldCount;
  let newRemaining = hunk.newCount;
  let oldLine = hunk.oldStart;
  let newLine = hunk.newStart;
  let additions = 0;
  let deletions = 0;
  let last: DiffLine | undefined;

  while (oldRemaining > 0 || newRemaining > 0) {
    if (!cursor.advance()) {
      throw new DiffParseError("Diff ends inside a hunk", cursor.lineNumber);
    }
    const start = cursor.lineStart;
    // An empty line is a context line whose trailing space was stripped by some tool.
    const marker = start < cursor.lineEnd ? text.charCodeAt(start) : SPACE;
    if (marker === SPACE) {
      if (oldRemaining === 0 || newRemaining === 0) throw countMismatch(cursor);
      last = {
        type: "context",
        content: text.slice(start + 1, cursor.lineEnd),
        oldLine: oldLine++,
        newLine: newLine++,
      };
      oldRemaining--;
      newRemaining--;
    } else if (marker === PLUS) {
      if (newRemaining === 0) throw countMismatch(cursor);
      last = {
        type: "add",
        content: text.slice(start + 1, cursor.lineEnd),
        oldLine: null,
        newLine: newLine++,
      };
      newRemaining--;
      additions++;
    } else if (marker === MINUS) {
      if (oldRemaining === 0) throw countMismatch(cursor);
      last = {
        type: "delete",
        content: text.slice(start + 1, cursor.lineEnd),
        oldLine: oldLine++,
        newLine: null,
      };
      oldRemaining--;
      deletions++;
    } else if (marker === BACKSLASH) {
      if (last !== undefined) last.noNewlineAtEnd = true;
      continue;
    } else {
      throw new DiffParseError("Unexpected line inside a hunk", cursor.lineNumber);
    }
    lines.push(last);
  }
  // `\ No newline at end of file` after the hunk's final line.
  if (cursor.peekCharCode() === BACKSLASH) {
    cursor.advance();
    if (last !== undefined) last.noNewlineAtEnd = true;
  }
  file.hunks.push(hunk);
  file.additions += additions;
  file.deletions += deletions;
}

function countMismatch(cursor: LineCursor): DiffParseError {
  return new DiffParseError("Hunk body does not match its header's line counts", cursor.lineNumber);
}

/** Parses `@@ -a[,b] +c[,d] @@[ section]` by hand: no regular expression, no backtracking. */
function parseHunkHeader(cursor: LineCursor): DiffHunk {
  const text = cursor.text;
  const end = cursor.lineEnd;
  let position = cursor.lineStart;
  const fail = (): DiffParseError => new DiffParseError("Malformed hunk header", cursor.lineNumber);

  const expect = (literal: string): void => {
    if (!text.startsWith(literal, position) || position + literal.length > end) throw fail();
    position += literal.length;
  };
  const readNumber = (): number => {
    let value = 0;
    const first = position;
    while (position < end) {
      const code = text.charCodeAt(position);
      if (code < DIGIT_0 || code > DIGIT_9) break;
      value = value * 10 + (code - DIGIT_0);
      position++;
    }
    if (position === first || position - first > 9) throw fail();
    return value;
  };
  const readCount = (): number => {
    if (position < end && text.charCodeAt(position) === COMMA) {
      position++;
      return readNumber();
    }
    return 1;
  };

  expect("@@ -");
  const oldStart = readNumber();
  const oldCount = readCount();
  expect(" +");
  const newStart = readNumber();
  const newCount = readCount();
  expect(" @@");
  if (position < end && text.charCodeAt(position) === AT) throw fail(); // `@@@`: combined diff
  let section = "";
  if (position < end) {
    if (text.charCodeAt(position) !== SPACE) throw fail();
    section = text.slice(position + 1, end);
  }
  return { oldStart, oldCount, newStart, newCount, section, lines: [] };
}
