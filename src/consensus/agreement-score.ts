import type { LineRange } from "./prepared-finding.js";
import { type FindingKinds, kindsAgree, kindsConflict } from "./problem-kind.js";
import { type TextVectors, textSimilarity } from "./text-similarity.js";

/** Lines this close (or overlapping) count as the same place. */
export const NEAR_LINES = 3;
/** Beyond this many lines apart, two findings are never the same problem. */
export const FAR_LINES = 20;
/** Proximity left at FAR_LINES: far findings need proportionally stronger text evidence. */
const FAR_PROXIMITY = 0.7;
/**
 * Added (times proximity) when both titles claim the same kind of defect: the same problem
 * reported through two lenses often shares the kind and little else ("ReDoS" / "catastrophic
 * backtracking").
 */
export const KIND_BONUS = 0.1;

/** Lines between the closest pair of ranges; 0 when they overlap. */
export function lineGap(a: readonly LineRange[], b: readonly LineRange[]): number {
  let best = Number.POSITIVE_INFINITY;
  for (const left of a) {
    for (const right of b) {
      const gap = Math.max(0, Math.max(left.start, right.start) - Math.min(left.end, right.end));
      best = Math.min(best, gap);
    }
  }
  return best;
}

/** 1 for the same place, falling linearly to FAR_PROXIMITY at FAR_LINES, 0 beyond. */
export function proximity(gap: number): number {
  if (gap <= NEAR_LINES) {
    return 1;
  }
  if (gap > FAR_LINES) {
    return 0;
  }
  return 1 - ((1 - FAR_PROXIMITY) * (gap - NEAR_LINES)) / (FAR_LINES - NEAR_LINES);
}

/** What the score needs of a finding: where it is and its scaled text. */
export interface Comparable {
  file: string;
  ranges: readonly LineRange[];
  vectors: TextVectors;
  /** The title lowercased with punctuation and spacing folded (see `normalizedTitle`). */
  title: string;
  /** The kinds of defect it claims and names (see `problem-kind.ts`). */
  kinds: FindingKinds;
}

/** A title reduced to its words, so "Off-by-one!" and "off by one" compare equal. */
export function normalizedTitle(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/**
 * How strongly two findings look like the same problem at the same place, in [0, 1]: text
 * similarity discounted by distance; 0 across files or beyond FAR_LINES.
 */
export function agreementScore(a: Comparable, b: Comparable): number {
  if (a.file !== b.file) {
    return 0;
  }
  const gap = lineGap(a.ranges, b.ranges);
  // The same words at the same place are the same finding, even when every word is too common
  // to weigh anything in the text similarity ("Changed line issue").
  if (gap <= NEAR_LINES && a.title !== "" && a.title === b.title) {
    return 1;
  }
  const near = proximity(gap);
  // Different kinds of defect are different problems, however close and alike in words.
  if (near === 0 || kindsConflict(a.kinds, b.kinds)) {
    return 0;
  }
  const text = near * textSimilarity(a.vectors, b.vectors);
  return kindsAgree(a.kinds, b.kinds) ? Math.min(1, text + near * KIND_BONUS) : text;
}
