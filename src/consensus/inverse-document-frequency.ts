import type { TextProfile } from "./text-profile.js";
import type { TokenFactor } from "./text-similarity.js";

// Damping: in a file with a handful of findings every token weighs about the same; in a busy
// file, tokens most of its findings share (the function everyone talks about) weigh less.
const DAMPING = 10;

/**
 * A smoothed inverse document frequency over the findings of one file: 1 + ln((N+C)/(df+C)).
 * Each token's value is computed once, here: a block's findings share most of their tokens.
 */
export function inverseDocumentFrequency(profiles: readonly TextProfile[]): TokenFactor {
  const values = new Map<string, number>();
  for (const profile of profiles) {
    for (const token of profile.weights.keys()) {
      values.set(token, (values.get(token) ?? 0) + 1);
    }
  }
  const size = profiles.length;
  const idf = (documentFrequency: number) =>
    1 + Math.log((size + DAMPING) / (documentFrequency + DAMPING));
  for (const [token, documentFrequency] of values) values.set(token, idf(documentFrequency));
  const unseen = idf(0);
  return (token) => values.get(token) ?? unseen;
}
