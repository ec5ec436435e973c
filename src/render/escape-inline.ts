import { escapeMarkdownLine } from "./escape-markdown-line.js";
import { flattenText } from "./flatten-text.js";

export interface InlineEscapeOptions {
  /** UTF-16 code units kept before escaping; longer text ends with `…`. */
  maxLength?: number;
  /** A GFM table cell: `|` is escaped too. */
  tableCell?: boolean;
}

export const DEFAULT_INLINE_LENGTH = 300;

/**
 * Untrusted text (a finding title, a failure reason) as one line of markdown:
 * inline formatting and code spans kept, no line break, no HTML, no mention.
 */
export function escapeInline(text: string, options: InlineEscapeOptions = {}): string {
  const flat = flattenText(text, options.maxLength ?? DEFAULT_INLINE_LENGTH);
  return escapeMarkdownLine(flat, { tableCell: options.tableCell ?? false, embedded: true });
}
