const LINE_FEED = "\n";
const CARRIAGE_RETURN = 13;

/**
 * Walks a text line by line without splitting it: the current line is the range
 * [lineStart, lineEnd) of `text`, its terminator (`\n` or `\r\n`) excluded. Callers slice only
 * what they keep, so a pass over a large diff allocates nothing per line by itself.
 */
export class LineCursor {
  readonly text: string;
  lineStart = 0;
  lineEnd = 0;
  /** 1-based number of the current line (0 before the first `advance`). */
  lineNumber = 0;
  private nextStart = 0;

  constructor(text: string) {
    this.text = text;
  }

  /** Moves to the next line; false when the text is exhausted. */
  advance(): boolean {
    const text = this.text;
    const start = this.nextStart;
    if (start >= text.length) return false;
    let newline = text.indexOf(LINE_FEED, start);
    if (newline === -1) newline = text.length;
    let end = newline;
    if (end > start && text.charCodeAt(end - 1) === CARRIAGE_RETURN) end--;
    this.lineStart = start;
    this.lineEnd = end;
    this.nextStart = newline + 1;
    this.lineNumber++;
    return true;
  }

  /** First character code of the current line, or -1 when the line is empty. */
  firstCharCode(): number {
    return this.lineStart < this.lineEnd ? this.text.charCodeAt(this.lineStart) : -1;
  }

  /** First character code of the next line, or -1 at the end of the text. */
  peekCharCode(): number {
    return this.nextStart < this.text.length ? this.text.charCodeAt(this.nextStart) : -1;
  }

  startsWith(prefix: string): boolean {
    // A prefix never holds a line terminator, so it cannot match across the end of the line.
    return this.text.startsWith(prefix, this.lineStart);
  }

  nextStartsWith(prefix: string): boolean {
    return this.text.startsWith(prefix, this.nextStart);
  }

  /** The current line from `offset` on, terminator excluded. */
  rest(offset: number): string {
    return this.text.slice(this.lineStart + offset, this.lineEnd);
  }
}
