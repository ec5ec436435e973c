// Front door of src/scoreboard: models and lenses scored over a time window from the run store
// (findings, agreement, cross-examination, fixed later, feedback, spend, time, failures), for
// `gadfly stats` and the dashboard. The figures are computed by pure functions from the rows
// the store reads; the SQL is in run/store (scoreboard-rows.ts), next to the other queries.
export { computeScoreboard, type ScoreboardInput } from "./compute-scoreboard.js";
export { figureText } from "./figure-text.js";
export { type FindingOutcome, findingOutcomes } from "./finding-outcomes.js";
export { parseRepository, type RepositoryName } from "./parse-repository.js";
export { MAX_WINDOW_DAYS, parseWindow } from "./parse-window.js";
export { type ReadScoreboardOptions, readScoreboard } from "./read-scoreboard.js";
export { RECENT_ROUNDS, type RecentRound, type Scoreboard, type ScoreLine } from "./scoreboard.js";
export type { ScoreboardFeedback } from "./scoreboard-feedback.js";
