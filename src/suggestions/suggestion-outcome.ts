/**
 * What the check made of a cluster's suggestion: one GitHub can commit (`passed`), or one shown
 * as a plain diff with the reason it failed (`failed`). Both name the lines they replace.
 */
export type SuggestionOutcome = PassedSuggestion | FailedSuggestion;

interface SuggestionCommon {
  file: string;
  /** The first and last head line replaced (1-based, inclusive). */
  line: number;
  endLine: number;
  /** The replacement, one entry per line, without line endings ([] deletes the lines). */
  lines: string[];
  /** The distinct models whose finding proposed this very replacement. */
  supporters: string[];
  /** The head's lines it replaces ([] when they could not be read). */
  original: string[];
}

export interface PassedSuggestion extends SuggestionCommon {
  kind: "passed";
  /**
   * The grammar the resulting file was parsed with, or null when none ships for the file's
   * kind, or when the head file already fails to parse: then the comment says its syntax was
   * not checked, and why (`syntaxNote`).
   */
  grammar: string | null;
  syntaxNote?: string;
}

export interface FailedSuggestion extends SuggestionCommon {
  kind: "failed";
  /** Why it is not offered as a suggestion, one sentence a reader acts on. */
  reason: string;
}
