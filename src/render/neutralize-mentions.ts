/** Inserted after `@` so GitHub neither links nor notifies: the text still reads the same. */
export const ZERO_WIDTH_JOINER = "\u200D";

const URL = /https?:\/\/[^\s<>]+/g;
/** `@name` or `@org/team` at a word start; `a@b.c` (an e-mail) is preceded by a word character. */
const MENTION = /(^|[^A-Za-z0-9_])@(?=[A-Za-z0-9])/g;
/** Entities that render as `@`: GitHub finds mentions after entities are decoded. */
const AT_ENTITY = /&(?:#0*64|#[xX]0*40|commat);/g;

/** Defuses `@user` and `@org/team` mentions outside URLs (GitHub does not mention inside links). */
export function neutralizeMentions(text: string): string {
  const decoded = text.replace(AT_ENTITY, "@");
  if (!decoded.includes("@")) return decoded;
  let result = "";
  let last = 0;
  for (const match of decoded.matchAll(URL)) {
    result += neutralizePlain(decoded.slice(last, match.index));
    result += match[0];
    last = match.index + match[0].length;
  }
  return result + neutralizePlain(decoded.slice(last));
}

function neutralizePlain(text: string): string {
  return text.replace(MENTION, `$1@${ZERO_WIDTH_JOINER}`);
}
