import type { Context } from "probot";
import { askInThread } from "./ask-in-thread.js";
import type { TriggerDecision } from "./can-trigger-review.js";
import { canTriggerReview } from "./can-trigger-review.js";
import { loadRepoConfig } from "./load-repo-config.js";
import { mentionOf, parseFeedbackCommand } from "./parse-feedback-command.js";
import { parseThreadRequest } from "./parse-thread-request.js";
import type { PermissionCache } from "./permission-cache.js";
import { pollReactions } from "./poll-reactions.js";
import { recordThreadFeedback } from "./record-thread-feedback.js";
import type { RoundDependencies } from "./round-dependencies.js";
import { skipNonHuman } from "./skip-non-human.js";
import type { StartOutcome } from "./start-round.js";

/**
 * A reply on the thread of one of our inline comments: `@gadfly dismiss [reason]`,
 * `@gadfly false-positive` or `@gadfly undismiss` by someone with write access is recorded
 * against the comment's finding (posted_inline maps the comment to its fingerprint) and
 * acknowledged with 👍 on the reply. A reader's command is ignored, silently (no reply to argue
 * with); bots and our own comments say nothing. Any reply also polls the reactions on our
 * inline comments, as GitHub sends no webhook for reactions. Any other `@gadfly …` line by a
 * writer is a question (or `recheck`) for the finding's model, answered in the thread
 * (ask-in-thread.ts).
 */
export async function handleReviewComment(
  context: Context<"pull_request_review_comment.created">,
  deps: RoundDependencies,
  permissions: PermissionCache<TriggerDecision>,
): Promise<StartOutcome> {
  const { payload } = context;
  const installationId = payload.installation?.id;
  if (installationId === undefined)
    return { kind: "skipped", reason: "no installation in the payload" };
  const { comment } = payload;
  const human = skipNonHuman(comment.user, deps.botLogin, "comment");
  if ("skip" in human) return { kind: "skipped", reason: human.skip };
  const author = human.actor;
  const repo = context.repo();
  const pullNumber = payload.pull_request.number;
  const target = { installationId, repo, pullNumber };
  // A writer's reply is a moment to read reactions; a reader's is not (reads stay bounded).
  const writer = await canTriggerReview(
    context.octokit,
    {
      installationId,
      repo,
      author: { login: author.login, type: author.type ?? "User" },
      botLogin: deps.botLogin,
    },
    permissions,
  );
  if (writer.allowed) await pollReactions(context.octokit, target, deps, permissions);
  const rootId = comment.in_reply_to_id;
  if (rootId === undefined || rootId === null) {
    return { kind: "skipped", reason: "not a reply on a thread" };
  }
  const repoConfig = await loadRepoConfig(context.octokit, repo);
  const mention = mentionOf(repoConfig.config.trigger);
  const command = parseFeedbackCommand(comment.body, mention);
  if (command === null) {
    const request = parseThreadRequest(comment.body, mention);
    if (request === null) return { kind: "skipped", reason: "no feedback command" };
    return askInThread(
      context.octokit,
      {
        delivery: context,
        ...target,
        rootCommentId: rootId,
        replyCommentId: comment.id,
        actor: author,
        request,
      },
      deps,
      permissions,
    );
  }
  return recordThreadFeedback(
    context.octokit,
    {
      delivery: context,
      ...target,
      rootCommentId: rootId,
      actor: author,
      kind: command.kind,
      reason: command.reason,
      notOurs: "not a reply to a Gadfly finding",
      acknowledge: async () => {
        await context.octokit.rest.reactions.createForPullRequestReviewComment({
          ...repo,
          comment_id: comment.id,
          content: "+1",
        });
      },
    },
    deps,
    permissions,
  );
}
