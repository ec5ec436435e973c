// Front door of src/agent: the lens agent: loading lenses, reviewing one lens, its report and failure wording.
// Other folders import only from here; this lists what they use today.
export {
  answerQuestion,
  MAX_ANSWER_CHARS,
  MAX_QUESTION_CHARS,
  type QuestionOutcome,
} from "./answer-question.js";
export type { PromptStyle, RepositoryConvention } from "./build-review-prompt.js";
export {
  type ChallengedClaim,
  type ChallengeOutcome,
  challengeFinding,
} from "./challenge-finding.js";
export { fenceUntrusted } from "./fence-untrusted.js";
export type { LensEvent } from "./lens-event.js";
export type { LensFailover } from "./lens-failover.js";
export type { LensReport } from "./lens-report.js";
export type { LensDefinition } from "./load-lenses.js";
export { loadLenses } from "./load-lenses.js";
export {
  type ChangeSummary,
  type FileGroup,
  parseSummaryAnswer,
  SUMMARY_LIMITS,
} from "./parse-summary-answer.js";
export { publicCancelReason, publicFailureReason } from "./public-failure-reason.js";
export { reviewLens } from "./review-lens.js";
export {
  SUMMARY_PROMPT_BOUNDS,
  type SummaryInput,
  type SummaryOutcome,
  summarizePullRequest,
  summaryPrompt,
} from "./summarize-pull-request.js";
export type { ChangedFiles } from "./tools/repo-tool.js";
export { Workspace } from "./workspace.js";
