// Front door of src/render: Markdown for GitHub: the consensus comment, inline comments, the status board, check runs.
// Other folders import only from here; this lists what they use today.
export {
  DASHBOARD_SORT_KEYS,
  type DashboardPageInput,
  type DashboardSortKey,
} from "./dashboard-view.js";
export { diffSide, fenceCode, fenceDiff } from "./escape/code-fence.js";
export { escapeInline } from "./escape/markdown-line.js";
export { type CodeLinks, challengeNote, codeUrl } from "./finding-row.js";
export { formatLocation, shortSha } from "./format.js";
export { type LensMetadata, lensMetadata } from "./lens-metadata.js";
export {
  findingMarkerIn,
  isModelCommentMarker,
  MARKERS,
  modelCommentMarker,
  startsWithMarker,
  threadAnswerMarker,
} from "./markers.js";
export { parseMetaComment } from "./meta-comment.js";
export { notReviewedLabel } from "./not-reviewed-label.js";
export { renderCheckRunOutput } from "./render-check-run-output.js";
export { renderConsensusComment } from "./render-consensus-comment.js";
export { renderDashboard } from "./render-dashboard.js";
export { renderDashboardLogin } from "./render-dashboard-login.js";
export { type FilterSkipOutput, renderFilterSkip } from "./render-filter-skip.js";
export { renderInlineComment } from "./render-inline-comment.js";
export {
  type HeldBack,
  renderInlineReviewBody,
  type UnplacedFinding,
} from "./render-inline-review-body.js";
export { renderInvalidConfigNotice } from "./render-invalid-config-notice.js";
export type { RenderOptions } from "./render-options.js";
export { renderStatusBoard } from "./render-status-board.js";
export {
  type RecheckAnswer,
  renderThreadAnswer,
  type ThreadReply,
} from "./render-thread-answer.js";
export {
  type CheckOutput,
  cancelledCheck,
  closedCheck,
  failedCheck,
  movedOnCheck,
  supersededCheck,
  supersededReason,
} from "./round-endings.js";
export { type SuggestionView, suggestionView } from "./suggestion-view.js";
export { roundUsageLine, usageLine } from "./usage-line.js";
