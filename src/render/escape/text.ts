/*
 * Plain-text primitives every escaper builds on: no markdown here. Invisible characters out,
 * text cut at a code-unit budget, and what GitHub would act on defused: `@mentions` and the
 * `<!--` that opens an HTML comment.
 */

/** Bidirectional controls: they can reorder what a reader sees ("trojan source"). */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;
/** Zero-width and invisible formatting characters: they can hide or split words. */
const ZERO_WIDTH = /[\u00AD\u180E\u200B-\u200D\u2060-\u2064\uFEFF]/g;
/** C0 and C1 control characters other than tab and line feed. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROLS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;

export interface StripOptions {
  /** Also remove zero-width characters (titles); lens text keeps them for emoji sequences. */
  zeroWidth?: boolean;
}

/**
 * Removes characters a model could use to make published text read differently
 * from what it says. Carriage returns become line feeds first so no line is lost.
 */
export function stripInvisibleCharacters(text: string, options: StripOptions = {}): string {
  let result = text.replace(/\r\n?/g, "\n").replace(CONTROLS, "").replace(BIDI_CONTROLS, "");
  if (options.zeroWidth ?? true) result = result.replace(ZERO_WIDTH, "");
  return result;
}

export interface Truncation {
  text: string;
  /** UTF-16 code units cut off (0 when the text fitted). */
  omitted: number;
}

/**
 * Cuts `text` to at most `maxLength` UTF-16 code units (GitHub's unit), ellipsis
 * included, never splitting a surrogate pair.
 */
export function truncateText(text: string, maxLength: number, ellipsis = "…"): Truncation {
  if (text.length <= maxLength) return { text, omitted: 0 };
  const keep = cutPoint(text, Math.max(0, maxLength - ellipsis.length));
  const kept = text.slice(0, keep);
  return { text: maxLength >= ellipsis.length ? kept + ellipsis : "", omitted: text.length - keep };
}

/** The largest index ≤ `index` that does not fall inside a surrogate pair. */
export function cutPoint(text: string, index: number): number {
  if (index <= 0) return 0;
  if (index >= text.length) return text.length;
  const before = text.charCodeAt(index - 1);
  return before >= 0xd800 && before <= 0xdbff ? index - 1 : index;
}

/**
 * One line of visible text: invisible and control characters removed, every run
 * of whitespace (line breaks included) made one space, cut to `maxLength` with `…`.
 */
export function flattenText(text: string, maxLength: number): string {
  const flat = stripInvisibleCharacters(text).replace(/\s+/g, " ").trim();
  return truncateText(flat, maxLength).text;
}

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

const COMMENT_OPENING = /<!--/g;

/**
 * Breaks every `<!--` inside code, where it renders as text but would still be
 * found by anyone searching the raw body for a marker (`<!-- gadfly-…`, even cut
 * short). Only our templates put HTML comments in a body.
 */
export function breakCommentOpeners(text: string): string {
  return text.replace(COMMENT_OPENING, `<!${ZERO_WIDTH_JOINER}--`);
}
