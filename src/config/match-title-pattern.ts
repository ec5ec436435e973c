/**
 * A pull request's title is attacker text and a title pattern is the maintainer's: no RegExp is
 * built from either. A pattern is literal text, matched case-insensitively; a leading `^` ties
 * it to the title's start (after spaces); where the pattern begins or ends with a letter or
 * digit, the title must not continue the word there (`WIP` matches `WIP: x`, not `WIPE`). The
 * title is cut to TITLE_MATCH_CHARS first, so the work is at most that × the pattern's length.
 */
export const TITLE_MATCH_CHARS = 1024;

const WORD = /^[\p{L}\p{N}_]$/u;

export function matchTitlePattern(title: string, pattern: string): boolean {
  const anchored = pattern.startsWith("^");
  const needle = (anchored ? pattern.slice(1) : pattern).toLowerCase();
  if (needle === "") return false;
  const haystack = title.slice(0, TITLE_MATCH_CHARS).toLowerCase();
  const wordStart = isWord(needle[0]);
  const wordEnd = isWord(needle[needle.length - 1]);
  const bounded = (at: number) =>
    (!wordStart || !isWord(haystack[at - 1])) &&
    (!wordEnd || !isWord(haystack[at + needle.length]));
  if (anchored) {
    const start = haystack.length - haystack.trimStart().length;
    return haystack.startsWith(needle, start) && bounded(start);
  }
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) {
    if (bounded(at)) return true;
  }
  return false;
}

function isWord(char: string | undefined): boolean {
  return char !== undefined && WORD.test(char);
}
