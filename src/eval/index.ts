// Front door of src/eval: `gadfly eval`'s datasets, location matching, scores and report.

export { DatasetError } from "./dataset-error.js";
export type { EvalEntry, GoldComment } from "./eval-entry.js";
export { type EvalFormat, formatEval } from "./format-eval.js";
export { type LoadDatasetOptions, loadDataset } from "./load-dataset.js";
export {
  type Located,
  type LocationMatch,
  matchesLocation,
  matchLocations,
} from "./match-locations.js";
export { EntryResultLine } from "./schema.js";
export { type EntryResult, type ScopeScore, scoreEntry } from "./score-entry.js";
export { type EvalSummary, summarizeResults } from "./summarize-results.js";
