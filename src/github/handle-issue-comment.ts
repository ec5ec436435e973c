import type { Context } from "probot";
import { canTriggerReview, type TriggerDecision } from "./can-trigger-review.js";
import { loadRepoConfig } from "./load-repo-config.js";
import { oncePerDelivery } from "./once-per-delivery.js";
import { parseTriggerComment } from "./parse-trigger-comment.js";
import type { PermissionCache } from "./permission-cache.js";
import { pollReactions } from "./poll-reactions.js";
import type { RoundDependencies } from "./round-dependencies.js";
import { skipNonHuman } from "./skip-non-human.js";
import { type StartOutcome, startRound } from "./start-round.js";
import { WriteBudgetTimeoutError } from "./write-budget.js";
import { DELIVERY_WRITE_WAIT_MS } from "./write-grant.js";

/**
 * `@gadfly review` (the repo's phrase; `@gadfly review full` for the whole PR) on a pull request, by someone who can
 * write to the repository: a round on the PR's current head, acknowledged
 * with 👀. Bots, our own comments and readers start nothing. A person's comment also reads the
 * reactions on our inline comments (pollReactions). `permissions`
 * outlives the delivery: it caches the permission API's answers briefly.
 */
export async function handleIssueComment(
  context: Context<"issue_comment.created">,
  deps: RoundDependencies,
  permissions: PermissionCache<TriggerDecision>,
): Promise<StartOutcome> {
  const { payload } = context;
  const installationId = payload.installation?.id;
  if (installationId === undefined)
    return { kind: "skipped", reason: "no installation in the payload" };
  if (payload.issue.pull_request === undefined)
    return { kind: "skipped", reason: "not a pull request" };
  const { comment } = payload;
  const human = skipNonHuman(comment.user, deps.botLogin, "comment");
  if ("skip" in human) return { kind: "skipped", reason: human.skip };
  const author = human.actor;
  const repo = context.repo();
  // The permission API decides, never `author_association` (a MEMBER may only read).
  const decision = await canTriggerReview(
    context.octokit,
    {
      installationId,
      repo,
      author: { login: author.login, type: author.type ?? "User" },
      botLogin: deps.botLogin,
    },
    permissions,
  );
  // GitHub sends no webhook for reactions: a writer's comment is a moment to read them (a
  // reader's is not, so comments cannot multiply the installation's reads).
  if (decision.allowed) {
    await pollReactions(
      context.octokit,
      { installationId, repo, pullNumber: payload.issue.number },
      deps,
      permissions,
    );
  }
  const repoConfig = await loadRepoConfig(context.octokit, repo);
  const request = parseTriggerComment(comment.body, repoConfig.config.trigger);
  if (request === null) return { kind: "skipped", reason: "no trigger phrase" };
  if (!decision.allowed) return { kind: "skipped", reason: decision.reason };
  return oncePerDelivery(context, deps, async () => {
    // 👀 says the comment was seen; a spent write budget skips it, never the round.
    await context.octokit.rest.reactions
      .createForIssueComment({
        ...repo,
        comment_id: comment.id,
        content: "eyes",
        request: { gadflyWrite: { maxWaitMs: DELIVERY_WRITE_WAIT_MS } },
      })
      .catch((error: unknown) => {
        if (!(error instanceof WriteBudgetTimeoutError)) throw error;
        deps.log.warn({}, "👀 not posted: GitHub's write budget is spent");
      });
    return startRound(
      context.octokit,
      {
        repo,
        installationId,
        pullNumber: payload.issue.number,
        // The PR's head now, read under its lock.
        headSha: null,
        trigger: {
          kind: "comment",
          deliveryId: context.id,
          actor: author.login,
          ...(request.full ? { full: true } : {}),
        },
      },
      deps,
      repoConfig,
    );
  });
}
