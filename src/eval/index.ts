// Front door of src/eval: `gadfly eval`'s datasets, location matching, scores and report.

export { DatasetError } from "./dataset-error.js";
export type { EvalEntry, GoldComment } from "./eval-entry.js";
export { type EvalFormat, formatEval } from "./format-eval.js";
export {
  JUDGE_FENCE_INFO,
  JUDGE_SYSTEM_PROMPT,
  type JudgedFinding,
  judgeKey,
  judgePrompt,
} from "./judge-prompt.js";
export { type LoadDatasetOptions, loadDataset } from "./load-dataset.js";
export {
  type Accepts,
  type Located,
  type LocationMatch,
  matchesLocation,
  matchLocations,
} from "./match-locations.js";
export { type JudgeAnswer, parseJudgeAnswer } from "./parse-judge-answer.js";
export { EntryResultLine } from "./schema.js";
export {
  type EntryResult,
  type JudgeFigures,
  judgedPairs,
  type ScopeScore,
  scoreEntry,
} from "./score-entry.js";
export { type EvalSummary, summarizeResults } from "./summarize-results.js";
