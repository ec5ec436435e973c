import { breakCommentOpeners, stripInvisibleCharacters } from "./text.js";

/** Lines of each side a diff shows; the rest are counted in a closing line. */
export const MAX_DIFF_LINES = 40;

/**
 * A fenced code block holding `lines` exactly: its fence is a run of backticks longer than any
 * run inside (GitHub, as CommonMark, closes a fence only with at least as many), so content
 * holding ```` ``` ```` cannot end the block early. Used for the ```` ```suggestion ```` block,
 * whose content GitHub commits as is; the suggestion check has already refused marker comments
 * and hidden characters in it.
 */
export function fenceCode(lines: readonly string[], info: string): string {
  const content = lines.join("\n");
  const longest = Math.max(0, ...(content.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return lines.length === 0 ? `${fence}${info}\n${fence}` : `${fence}${info}\n${content}\n${fence}`;
}

/**
 * A ```` ```diff ```` block from the lines replaced to the lines proposed, for reading only: its
 * lines lose invisible characters and any `<!--` (so no marker can be read out of it), and each
 * side shows at most MAX_DIFF_LINES lines.
 */
export function fenceDiff(original: readonly string[], proposed: readonly string[]): string {
  return fenceCode(
    [...diffSide(original, "-", display), ...diffSide(proposed, "+", display)],
    "diff",
  );
}

/**
 * One side of a diff: at most MAX_DIFF_LINES lines, each `sign` then the line as `show` makes
 * it safe for where it goes, and a closing line counting the rest.
 */
export function diffSide(
  lines: readonly string[],
  sign: string,
  show: (line: string) => string,
): string[] {
  const shown = lines.slice(0, MAX_DIFF_LINES).map((line) => `${sign}${show(line)}`);
  const more = lines.length - shown.length;
  return more > 0 ? [...shown, `${sign}… ${more} more line${more === 1 ? "" : "s"}`] : shown;
}

function display(line: string): string {
  return breakCommentOpeners(stripInvisibleCharacters(line));
}
