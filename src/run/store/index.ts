// Front door of src/run/store: the run store (SQLite, Postgres) and opening it.
// Other folders import only from here; this lists what they use today.

export { hasRun } from "./has-run.js";
export { isReaderRound } from "./is-reader-round.js";
export { KeyedLock } from "./keyed-lock.js";
export { openRunStore } from "./open-run-store.js";
export { createPostgresPool } from "./postgres-pool.js";
export type {
  ClaimOutcome,
  DueRound,
  FeedbackInput,
  FeedbackKind,
  PostedInline,
  PreviousRound,
  RecentRoundsQuery,
  RepoDismissal,
  RepoRef,
  ReviewBase,
  RoundEnding,
  RoundTrigger,
  RunStore,
  StaleThreadAnswer,
  StartRoundResult,
  StoredFeedback,
  StoredRound,
  ThreadAnswerClaim,
  ThreadAnswerClaimOutcome,
  ThreadAnswerResult,
} from "./run-store.js";
export { FEEDBACK_KINDS } from "./run-store.js";
export type {
  ScoreboardChallenge,
  ScoreboardFinding,
  ScoreboardLensRun,
  ScoreboardRound,
  ScoreboardRows,
} from "./scoreboard-rows.js";
export { StoreOpenError } from "./store-open-error.js";
