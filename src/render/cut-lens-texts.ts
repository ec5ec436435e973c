import { escapeMarkdownBlock } from "./escape/markdown-block.js";
import { cutPoint, stripInvisibleCharacters } from "./escape/text.js";
import type { LensCut } from "./model-view.js";

/**
 * Cuts lens texts so that, escaped, they take at most `available` characters in
 * all: short texts stay whole and the long ones share what is left equally.
 * Each cut prefers a line boundary near its end so the text stops cleanly.
 */
export function cutLensTexts(texts: readonly string[], available: number): LensCut[] {
  const stripped = texts.map((text) => stripInvisibleCharacters(text, { zeroWidth: false }));
  const escapedLengths = stripped.map((text) => escapeMarkdownBlock(text).length);
  const allowances = shareOut(escapedLengths, Math.max(0, available));
  return stripped.map((text, index) => {
    const allowance = allowances[index] ?? 0;
    if ((escapedLengths[index] ?? 0) <= allowance) return { text, omitted: 0 };
    const kept = text.slice(0, prefixFitting(text, allowance));
    return { text: kept, omitted: text.length - kept.length };
  });
}

/** Water-filling: everyone gets min(need, equal share of what the smaller needs left). */
function shareOut(needs: readonly number[], total: number): number[] {
  const order = needs.map((need, index) => ({ need, index })).sort((a, b) => a.need - b.need);
  const shares = new Array<number>(needs.length).fill(0);
  let left = total;
  order.forEach(({ need, index }, position) => {
    const share = Math.floor(left / (order.length - position));
    shares[index] = Math.min(need, share);
    left -= shares[index] ?? 0;
  });
  return shares;
}

/** The longest prefix whose escaped form fits `allowance`, ending at a line break if one is near. */
function prefixFitting(text: string, allowance: number): number {
  let low = 0;
  let high = text.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (escapeMarkdownBlock(text.slice(0, cutPoint(text, middle))).length <= allowance) {
      low = middle;
    } else {
      high = middle - 1;
    }
  }
  const end = cutPoint(text, low);
  const lineBreak = text.lastIndexOf("\n", end);
  return lineBreak > 0 && end - lineBreak < 400 ? lineBreak : end;
}
