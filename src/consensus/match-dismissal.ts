import { normalizedTitle } from "./agreement-score.js";
import { textProfile } from "./text-profile.js";
import { textSimilarity, textVectors } from "./text-similarity.js";

/** Titles at least this alike (textSimilarity of the titles alone) are the same complaint. */
export const DISMISSAL_TITLE_SIMILARITY = 0.5;

/** Where a finding is and what it says: enough to compare it with an earlier dismissal. */
export interface DismissalSubject {
  file: string;
  title: string;
  line: number;
  endLine: number;
  /** The normalized code at its lines, hashed (codeContext); absent when it could not be read. */
  context?: string | undefined;
}

/**
 * Whether `finding` repeats what `dismissed` said (learn: repo): a title the clustering's text
 * similarity finds alike, and either the same place (the same file, overlapping lines) or the
 * same normalized code at its lines. A sibling file, a like title or the same directory is not
 * enough: a reader could open a harmless PR to bait a dismissal that hides a real finding.
 */
export function matchesDismissal(finding: DismissalSubject, dismissed: DismissalSubject): boolean {
  const samePlace =
    finding.file === dismissed.file &&
    finding.line <= dismissed.endLine &&
    dismissed.line <= finding.endLine;
  const sameCode =
    finding.context !== undefined &&
    finding.context !== "" &&
    finding.context === dismissed.context;
  if (!samePlace && !sameCode) return false;
  const left = normalizedTitle(finding.title);
  if (left !== "" && left === normalizedTitle(dismissed.title)) return true;
  const vectors = (title: string) => textVectors(textProfile({ title, body: title }));
  return (
    textSimilarity(vectors(finding.title), vectors(dismissed.title)) >= DISMISSAL_TITLE_SIMILARITY
  );
}
