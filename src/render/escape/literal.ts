import {
  breakCommentOpeners,
  flattenText,
  neutralizeMentions,
  stripInvisibleCharacters,
} from "./text.js";

/* One untrusted value shown literally: as a code span, or as text inside raw HTML. */

export interface CodeSpanOptions {
  /** UTF-16 code units kept; longer text keeps its end (a path's file name) after `…`. */
  maxLength?: number;
  /** A GFM table cell: `|` is escaped (GFM unescapes it inside code spans too). */
  tableCell?: boolean;
}

/** Untrusted text (a path, a model id) as a code span that no content can break out of. */
export function escapeCodeSpan(text: string, options: CodeSpanOptions = {}): string {
  const maxLength = options.maxLength ?? 200;
  let content = stripInvisibleCharacters(text).replace(/\s+/g, " ").trim();
  if (content.length > maxLength) content = `…${keepEnd(content, maxLength - 1)}`;
  content = breakCommentOpeners(content);
  if (options.tableCell) content = content.replaceAll("|", "\\|");
  if (content === "") return "` `";
  const longestRun = Math.max(0, ...(content.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longestRun + 1);
  const padding = content.startsWith("`") || content.endsWith("`") ? " " : "";
  return `${fence}${padding}${content}${padding}${fence}`;
}

function keepEnd(text: string, length: number): string {
  let start = text.length - length;
  const first = text.charCodeAt(start);
  if (first >= 0xdc00 && first <= 0xdfff) start += 1;
  return text.slice(start);
}

/** Untrusted text inside raw HTML (a `<summary>`): markdown is not parsed there, entities are. */
export function escapeHtml(text: string, maxLength = 200): string {
  return neutralizeMentions(flattenText(text, maxLength))
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");
}

/**
 * Untrusted text shown as plain words on one line of markdown: every ASCII punctuation mark is
 * backslash-escaped, so nothing in it makes a heading, list, emphasis, code, link, image or
 * HTML; mentions are defused and the line is cut to `maxLength`.
 */
export function escapePlainText(text: string, maxLength = 240): string {
  return neutralizeMentions(flattenText(text, maxLength)).replace(/[!-/:-@[-`{-~]/g, "\\$&");
}
