import { normalizedTitle } from "./agreement-score.js";
import { textProfile } from "./text-profile.js";
import { textSimilarity, textVectors } from "./text-similarity.js";

/** Titles at least this alike (textSimilarity of the titles alone) are the same complaint. */
export const DISMISSAL_TITLE_SIMILARITY = 0.5;

/** Where a finding is and what it says: enough to compare it with an earlier dismissal. */
export interface DismissalSubject {
  file: string;
  title: string;
}

/**
 * The glob an earlier dismissal covers: its file's directory and extension (`src/api/*.ts`),
 * so the same complaint about a sibling file is held back too, but not one elsewhere.
 */
export function dismissalGlob(file: string): string {
  const slash = file.lastIndexOf("/");
  const directory = slash < 0 ? "" : file.slice(0, slash + 1);
  const name = file.slice(slash + 1);
  const dot = name.lastIndexOf(".");
  return `${directory}*${dot > 0 ? name.slice(dot) : ""}`;
}

function inGlob(file: string, glob: string): boolean {
  const star = glob.indexOf("*");
  const prefix = glob.slice(0, star);
  const suffix = glob.slice(star + 1);
  const rest = file.slice(prefix.length);
  return (
    file.startsWith(prefix) &&
    rest.length >= suffix.length &&
    rest.endsWith(suffix) &&
    !rest.slice(0, rest.length - suffix.length).includes("/")
  );
}

/**
 * Whether `finding` repeats what `dismissed` said (learn: repo): a file in the dismissal's
 * glob and a title the clustering's text similarity finds alike (or equal once normalised).
 */
export function matchesDismissal(finding: DismissalSubject, dismissed: DismissalSubject): boolean {
  if (!inGlob(finding.file, dismissalGlob(dismissed.file))) return false;
  const left = normalizedTitle(finding.title);
  if (left !== "" && left === normalizedTitle(dismissed.title)) return true;
  const vectors = (title: string) => textVectors(textProfile({ title, body: title }));
  return (
    textSimilarity(vectors(finding.title), vectors(dismissed.title)) >= DISMISSAL_TITLE_SIMILARITY
  );
}
