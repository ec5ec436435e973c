import type { Redactor } from "./redact-secrets.js";

export interface RedactorMemoLimits {
  /** Shorter texts are redacted each time: cheap, and too many to be worth keeping. */
  minimumLength?: number;
  /** At most this many texts are kept, the least recently asked for going first. */
  maxEntries?: number;
  /** At most this many characters of kept texts and their redactions. */
  maxCharacters?: number;
}

// A 50-file PR's round has ~0.4M characters of distinct long texts to redact; a million (1 to 2
// MB) holds that with room, per round in flight.
const DEFAULT_LIMITS: Required<RedactorMemoLimits> = {
  minimumLength: 1024,
  maxEntries: 256,
  maxCharacters: 1024 * 1024,
};

/**
 * `redact`, remembering its answer for long texts: a round's lenses and sessions all open with
 * the same diff summary (tens of KB) and read the same files, and their transcripts are redacted
 * one by one. The same output as `redact` for every text (a redactor depends on nothing else);
 * what it keeps is bounded by `limits` and lives as long as the redactor it returns, so whoever
 * owns that (one review round) decides how long the unredacted texts stay in memory.
 */
export function memoizeRedactor(redact: Redactor, limits: RedactorMemoLimits = {}): Redactor {
  const { minimumLength, maxEntries, maxCharacters } = { ...DEFAULT_LIMITS, ...limits };
  const kept = new Map<string, string>();
  let characters = 0;
  const size = (text: string, redacted: string) =>
    text.length + (redacted === text ? 0 : redacted.length);
  return (text) => {
    if (text.length < minimumLength) return redact(text);
    const known = kept.get(text);
    if (known !== undefined) {
      // Most recently used last, so the round's opening outlives one-off texts.
      kept.delete(text);
      kept.set(text, known);
      return known;
    }
    const redacted = redact(text);
    const added = size(text, redacted);
    if (added > maxCharacters) return redacted;
    kept.set(text, redacted);
    characters += added;
    for (const [oldest, oldestRedacted] of kept) {
      if (kept.size <= maxEntries && characters <= maxCharacters) break;
      kept.delete(oldest);
      characters -= size(oldest, oldestRedacted);
    }
    return redacted;
  };
}
