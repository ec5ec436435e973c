import { fenceCode } from "./code-fence.js";
import { breakCommentOpeners, neutralizeMentions, stripInvisibleCharacters } from "./text.js";

/** Our own collapsing tags, broken by a zero-width joiner like `<!--`: see fencedBlock. */
const OWN_TAGS = /<(\/?)(details|summary)/gi;

/**
 * Untrusted multi-line text shown verbatim as a fenced code block that nothing inside it can
 * close: the fence is one backtick longer than the longest backtick run in the text (at least
 * three). Invisible and bidi characters are removed and `<!--` broken, so a hostile text can
 * neither reorder what a reader sees nor plant a marker our own code would find in the body.
 * Mentions are defused and `<details>` / `</details>` broken the same way, so the raw body
 * keeps every invariant the rest of the comment keeps even where no fence is honoured (a
 * notification e-mail, a plain-text client); a coding agent reads the text unchanged.
 */
export function fencedBlock(text: string, info = "text"): string {
  const content = neutralizeMentions(breakCommentOpeners(stripInvisibleCharacters(text)))
    .replace(OWN_TAGS, "<\u200D$1$2")
    .replace(/\n+$/, "");
  return fenceCode(content.split("\n"), info);
}
