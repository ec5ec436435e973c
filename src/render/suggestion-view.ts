import type { SuggestionOutcome } from "../suggestions/index.js";

/** What templates/inline-comment.hbs shows of a cluster's checked suggestion. */
export interface SuggestionView {
  /** True for a ```suggestion block; false for a ```diff shown with the reason it is not one. */
  passed: boolean;
  file: string;
  line: number;
  endLine: number;
  /** The replacement's lines (the `suggestionBlock` / `diffBlock` helpers fence them). */
  lines: string[];
  /** The head's lines it replaces (the diff shows them; a passed one's too, in the CLI). */
  original: string[];
  /** How many of the cluster's models proposed it, of `models`. */
  supporters: number;
  models: number;
  /** Ours, never model text: what was checked, or why it failed. */
  checked: string;
}

/** The view of a checked suggestion, or null for a cluster with none. */
export function suggestionView(
  outcome: SuggestionOutcome | undefined,
  models: number,
): SuggestionView | null {
  if (outcome === undefined) return null;
  const common = {
    file: outcome.file,
    line: outcome.line,
    endLine: outcome.endLine,
    lines: outcome.lines,
    original: outcome.original,
    supporters: outcome.supporters.length,
    models: Math.max(models, outcome.supporters.length),
  };
  if (outcome.kind === "failed") {
    return { ...common, passed: false, checked: outcome.reason };
  }
  return {
    ...common,
    passed: true,
    checked:
      outcome.grammar === null
        ? `it applies to these lines of the head with their indentation; syntax not checked: ${outcome.syntaxNote ?? "no parser for this kind of file"}.`
        : `it applies to these lines of the head with their indentation, and the file still parses (${outcome.grammar}).`,
  };
}
