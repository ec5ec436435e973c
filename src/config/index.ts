// Front door of src/config: the app and repository configuration: schemas, loading, limits, the review plan.
// Other folders import only from here; this lists what they use today.
export { ConfigError, type ConfigIssue } from "./config-error.js";
export {
  type FilterDecision,
  type FilteredPullRequest,
  filterPullRequest,
} from "./filter-pull-request.js";
export { findPackageRoot } from "./find-package-root.js";
export { type IgnoreMatcher, type IgnoreVerdict, ignoreMatcher } from "./ignore-matcher.js";
export { loadAppConfig } from "./load-app-config.js";
export { parseConfigText } from "./parse-config-text.js";
export { lensesFor, planReview } from "./plan-review.js";
export { REPO_CONFIG_LIMITS } from "./repo-config-limits.js";
export {
  DEFAULT_REPO_CONFIG,
  DEFAULT_SKIPPED_AUTHORS,
  DEFAULT_SKIPPED_TITLES,
  RepoConfig,
  type RepoFilters,
  type RepoInstruction,
  type RepoPublish,
} from "./repo-config-schema.js";
export { PROBOT_DEFAULT_SECRET, requireWebhookSecret } from "./require-webhook-secret.js";
export { type PriceTable, priceTable, type ReviewPlan } from "./resolve-review-plan.js";
export { compileSafeGlob, type MatchBudget } from "./safe-glob.js";
export {
  type AnthropicProviderConfig,
  type AppConfig,
  type BudgetConfig,
  type CommandProviderConfig,
  CrossExaminationConfig,
  type DownshiftConfig,
  LensId,
  type ModelConfig,
  ModelPrice,
  type OllamaProviderConfig,
  type OpenAIProviderConfig,
  type ProviderConfig,
  PublishPolicy,
  type PublishSeverity,
  ReaderLimits,
  type ReviewConfig,
  type SandboxConfig,
  SmallStepConfig,
  ThreadAnswerConfig,
} from "./schema.js";
