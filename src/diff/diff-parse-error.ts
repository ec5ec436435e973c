/**
 * A diff that is structurally broken (a hunk whose body does not match its header, a malformed
 * hunk header). We refuse rather than guess: a misparsed hunk would place inline comments on the
 * wrong lines. The message names the line and never quotes file content.
 */
export class DiffParseError extends Error {
  /** 1-based line number in the parsed text. */
  readonly lineNumber: number;

  constructor(message: string, lineNumber: number) {
    super(`${message} (diff line ${lineNumber})`);
    this.name = "DiffParseError";
    this.lineNumber = lineNumber;
  }
}
