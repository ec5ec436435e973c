// Front door of src/suggestions: checking a finding's proposed replacement before it is
// published as a GitHub suggestion (one hunk, the head's lines, indentation, a real parse).
// Other folders import only from here; this lists what they use today.
export { checkSuggestion, type SuggestionCandidate } from "./check-suggestion.js";
export {
  candidatesOf,
  checkSuggestions,
  MAX_CANDIDATES_PER_CLUSTER,
  MAX_SUGGESTION_CHECKS,
  MAX_SUGGESTION_FILE_BYTES,
} from "./check-suggestions.js";
export { applyReplacement, headFile } from "./head-file.js";
export type {
  FailedSuggestion,
  PassedSuggestion,
  SuggestionOutcome,
} from "./suggestion-outcome.js";
export { grammarOf, SyntaxChecker } from "./syntax-checker.js";
