import type { TextProfile } from "./text-profile.js";
import type { TokenFactor } from "./text-similarity.js";

// Damping: in a file with a handful of findings every token weighs about the same; in a busy
// file, tokens most of its findings share (the function everyone talks about) weigh less.
const DAMPING = 10;

/** A smoothed inverse document frequency over the findings of one file: 1 + ln((N+C)/(df+C)). */
export function inverseDocumentFrequency(profiles: readonly TextProfile[]): TokenFactor {
  const documentFrequency = new Map<string, number>();
  for (const profile of profiles) {
    for (const token of profile.weights.keys()) {
      documentFrequency.set(token, (documentFrequency.get(token) ?? 0) + 1);
    }
  }
  const size = profiles.length;
  return (token) =>
    1 + Math.log((size + DAMPING) / ((documentFrequency.get(token) ?? 0) + DAMPING));
}
