import type { TextProfile } from "./text-profile.js";

/** A per-token factor, such as an inverse document frequency. */
export type TokenFactor = (token: string) => number;

interface SparseVector {
  weights: ReadonlyMap<string, number>;
  norm: number;
}

/** A profile scaled for comparison: the whole text, its plain words, and the title's words. */
export interface TextVectors {
  all: SparseVector;
  words: SparseVector;
  titleWords: SparseVector;
}

// Half the score is the overlap of everything; the other half is how well each title's words
// (the claim, without the identifiers that only name the place) are echoed by the other text.
// Identifiers tell where; the claim tells what is wrong there.
const CLAIM_SHARE = 0.5;

const isWord = (token: string): boolean => token.startsWith("w:");

/** Weights scaled by their factor: all of them, and the plain words alone; one factor lookup each. */
function scaled(
  weights: ReadonlyMap<string, number>,
  factor: TokenFactor,
): { all: SparseVector; words: SparseVector } {
  const all = new Map<string, number>();
  const words = new Map<string, number>();
  let allSquares = 0;
  let wordSquares = 0;
  for (const [token, weight] of weights) {
    const value = weight * factor(token);
    all.set(token, value);
    allSquares += value * value;
    if (isWord(token)) {
      words.set(token, value);
      wordSquares += value * value;
    }
  }
  return {
    all: { weights: all, norm: Math.sqrt(allSquares) },
    words: { weights: words, norm: Math.sqrt(wordSquares) },
  };
}

/** Scales a profile once, so that each comparison is only dot products. */
export function textVectors(profile: TextProfile, factor: TokenFactor = () => 1): TextVectors {
  const { all, words } = scaled(profile.weights, factor);
  return { all, words, titleWords: scaled(profile.titleWeights, factor).words };
}

function cosine(a: SparseVector, b: SparseVector): number {
  if (a.norm === 0 || b.norm === 0) {
    return 0;
  }
  const [small, large] = a.weights.size <= b.weights.size ? [a, b] : [b, a];
  let dot = 0;
  for (const [token, weight] of small.weights) {
    dot += weight * (large.weights.get(token) ?? 0);
  }
  return Math.min(1, dot / (a.norm * b.norm));
}

/** How alike two findings' texts are, in [0, 1]; symmetric. */
export function textSimilarity(a: TextVectors, b: TextVectors): number {
  const overall = cosine(a.all, b.all);
  const claim = (cosine(a.titleWords, b.words) + cosine(b.titleWords, a.words)) / 2;
  return (1 - CLAIM_SHARE) * overall + CLAIM_SHARE * claim;
}
