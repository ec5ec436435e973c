import { ZERO_WIDTH_JOINER } from "./neutralize-mentions.js";

const COMMENT_OPENING = /<!--/g;

/**
 * Breaks every `<!--` inside code, where it renders as text but would still be
 * found by anyone searching the raw body for a marker (`<!-- gadfly-…`, even cut
 * short). Only our templates put HTML comments in a body.
 */
export function neutralizeMarkers(text: string): string {
  return text.replace(COMMENT_OPENING, `<!${ZERO_WIDTH_JOINER}--`);
}
