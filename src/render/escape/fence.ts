import { breakCommentOpeners, stripInvisibleCharacters } from "./text.js";

/**
 * Untrusted multi-line text shown verbatim as a fenced code block that nothing inside it can
 * close: the fence is one backtick longer than the longest backtick run in the text (at least
 * three). Invisible and bidi characters are removed and `<!--` broken, so a hostile text can
 * neither reorder what a reader sees nor plant a marker our own code would find in the body.
 */
export function fencedBlock(text: string, info = "text"): string {
  const content = breakCommentOpeners(stripInvisibleCharacters(text)).replace(/\n+$/, "");
  const longestRun = Math.max(0, ...(content.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(Math.max(3, longestRun + 1));
  return `${fence}${info}\n${content}\n${fence}`;
}
