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
