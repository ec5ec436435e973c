export type { AddPullRequestInput, PullRequestFileInput } from "./add-pull-request.js";
export type { AddRepositoryInput, FileContent } from "./add-repository.js";
export { FakeGitHub } from "./fake-github.js";
export type { ScriptedFault } from "./fault-script.js";
export type { GraphqlFailure } from "./graphql/graphql-failure.js";
export type { SecondaryRateLimit, ValidationFailure } from "./handle-request.js";
export type { PathPattern } from "./path-pattern.js";
export type { PushedFile } from "./push-commit.js";
export type { RecordedRequest, RequestFilter } from "./request-log.js";
export { type FakeGitHubOptions, startFakeGitHub } from "./start-fake-github.js";
export type * from "./types.js";
export {
  checkRunRerequestedEvent,
  deliver,
  issueCommentEvent,
  pullRequestEvent,
  pullRequestReviewCommentEvent,
  pullRequestReviewThreadEvent,
  signWebhook,
  type WebhookEvent,
} from "./webhooks.js";
