// Front door of src/github: the GitHub adapter: webhook handlers, rounds on pull requests, publishing.
// Other folders import only from here; this lists what they use today.
export { budgetGitHubWrites } from "./budget-github-writes.js";
export type { TriggerDecision } from "./can-trigger-review.js";
export { ConventionCache } from "./convention-cache.js";
export { createsAnew, noBlindCreateRetries } from "./create-once.js";
export { describeError } from "./describe-error.js";
export { type ExtractResult, extractTarball, unlistedSkipsNote } from "./extract-tarball.js";
export type { GitHubClient } from "./github-client.js";
export { handleCheckRunRerequested } from "./handle-check-run.js";
export { handleIssueComment } from "./handle-issue-comment.js";
export { handlePullRequest, PULL_REQUEST_EVENTS } from "./handle-pull-request.js";
export { handleReviewComment } from "./handle-review-comment.js";
export { handleReviewThread } from "./handle-review-thread.js";
export { hourlyWriteShape } from "./hourly-write-shape.js";
export { KILL_POINTS, type KillPoint } from "./kill-points.js";
export { PermissionCache } from "./permission-cache.js";
export { redactOutgoingText } from "./redact-outgoing-text.js";
export { giveUpRound } from "./round/give-up-round.js";
export { runRoundJob } from "./round/run-round-job.js";
export type { RoundDependencies, RoundLog } from "./round-dependencies.js";
export { SeenReactions } from "./seen-reactions.js";
export type { StartOutcome } from "./start-round.js";
export { sweepInterruptedAnswers } from "./sweep-interrupted-answers.js";
export {
  CheckRunPayload,
  IssueCommentPayload,
  PullRequestPayload,
  payloadProblem,
  ReviewCommentPayload,
  ReviewThreadPayload,
} from "./webhook-payloads.js";
export {
  WriteBudget,
  WriteBudgetTimeoutError,
  type WriteLimit,
  type WritePriority,
} from "./write-budget.js";
