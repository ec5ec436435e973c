import type { Context } from "probot";
import { canTriggerReview, type TriggerDecision } from "./can-trigger-review.js";
import { oncePerDelivery } from "./once-per-delivery.js";
import type { PermissionCache } from "./permission-cache.js";
import { recordFeedback } from "./record-feedback.js";
import type { RoundDependencies } from "./run-pull-request-round.js";
import { skipNonHuman } from "./skip-non-human.js";
import type { StartOutcome } from "./start-round.js";

/**
 * A person with write access resolved the thread of one of our inline comments before any round
 * found its finding fixed: recorded as `resolved_without_fix`. Our own resolution (after our
 * "Fixed in …" reply) and any resolution after that reply do not count; nor do bots or readers.
 */
export async function handleReviewThread(
  context: Context<"pull_request_review_thread.resolved">,
  deps: RoundDependencies,
  permissions: PermissionCache<TriggerDecision>,
): Promise<StartOutcome> {
  const { payload } = context;
  const installationId = payload.installation?.id;
  if (installationId === undefined)
    return { kind: "skipped", reason: "no installation in the payload" };
  const human = skipNonHuman(payload.sender, deps.botLogin, "resolution");
  if ("skip" in human) return { kind: "skipped", reason: human.skip };
  const sender = human.actor;
  const root = payload.thread.comments.find(
    (comment) => comment.in_reply_to_id === undefined || comment.in_reply_to_id === null,
  );
  if (root === undefined) return { kind: "skipped", reason: "thread without its first comment" };
  const repo = context.repo();
  const pullNumber = payload.pull_request.number;
  const posted = (await deps.store.postedInline(repo, pullNumber)).find(
    (entry) => entry.commentId === root.id,
  );
  if (posted === undefined) return { kind: "skipped", reason: "not a Gadfly finding's thread" };
  if (posted.fixedReplyId !== undefined) {
    return { kind: "skipped", reason: "the finding was fixed" };
  }
  const decision = await canTriggerReview(
    context.octokit,
    {
      installationId,
      repo,
      author: { login: sender.login, type: sender.type ?? "User" },
      botLogin: deps.botLogin,
    },
    permissions,
  );
  if (!decision.allowed) {
    return { kind: "skipped", reason: `feedback ignored: ${decision.reason}` };
  }
  return oncePerDelivery(context, deps, async () => {
    await recordFeedback(
      {
        repo,
        pullNumber,
        fingerprint: posted.fingerprint,
        kind: "resolved_without_fix",
        actor: sender.login,
      },
      deps,
    );
    return {
      kind: "skipped",
      reason: `feedback recorded: resolved_without_fix by ${sender.login}`,
    };
  });
}
