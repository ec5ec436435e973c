// Front door of src/run: one review round: the change set, the round runner, its status.
// The work queue and the run store have their own doors, run/queue/index.ts and run/store/index.ts,
// so that the CLI, which needs only the round, does not load pg, pg-boss or better-sqlite3.

export type { RecheckSay, ThreadRequest, ThreadRequestResult } from "./answer-thread-request.js";
export { answerThreadRequest } from "./answer-thread-request.js";
export type { ChangeSet, FullReviewReason, ReviewScope } from "./change-set.js";
export { CoalescedWriter } from "./coalesced-writer.js";
export { codeContext } from "./code-context.js";
export { collectSecrets } from "./collect-secrets.js";
export { conventionReads, isConventionPath } from "./convention-reads.js";
export {
  type ChallengeRecord,
  type CrossExaminationSettings,
  crossExamine,
  planChallenges,
} from "./cross-examine.js";
export { filesUnderReview } from "./files-under-review.js";
export { modelsSkippedForFork } from "./fork-rule.js";
export { prepareChangeSet } from "./prepare-change-set.js";
export {
  CONVENTION_LIMITS,
  type ConventionFile,
  conventionText,
} from "./repository-conventions.js";
export { type ChangeToReview, type ReviewChangeResult, reviewChange } from "./review-change.js";
export { reviewRound } from "./review-round.js";
export { createReviewerLimiter, type ReviewerLimiter } from "./reviewer-limiter.js";
export { RoundLease } from "./round-lease.js";
export {
  gaveUpReason,
  isHandover,
  MAX_ROUND_ATTEMPTS,
  ROUND_TRANSITIONS,
  type RoundLeaseRef,
  type RoundState,
  type RoundTransition,
  retryDelayMs,
  type StopReason,
  supersededReason,
} from "./round-machine.js";
export { RoundRegistry } from "./round-registry.js";
// The typed values every phase of a round takes: what it reviews, with what, and its journal.
export type { RoundJournal, RoundRequest, RoundRuntime, RoundSubject } from "./round-request.js";
export {
  type CrossExaminationStatus,
  type LensState,
  type LensStatus,
  NOT_REVIEWED_REASONS,
  type NotReviewed,
  type NotReviewedReason,
  type ReviewerStatus,
  type RoundStatus,
  type ScopeStatus,
} from "./round-status.js";
export { type ClaimedRound, createRoundWorker } from "./round-worker.js";
export type { SmallStepGate } from "./small-step-plan.js";
export { smallStepSeed } from "./small-step-seed.js";
export { retentionDays, startRetention } from "./start-retention.js";
// Type only, so it loads nothing of the store: the repository a round is about.
export type { RepoRef } from "./store/run-store.js";
export { SUMMARY_LENS, type SummaryRecord } from "./summary-phase.js";
export { cancelRemaining } from "./track-round-status.js";
export { type Sweeper, startSweeper } from "./wake-due-rounds.js";
