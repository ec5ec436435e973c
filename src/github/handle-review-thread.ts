import type { Context } from "probot";
import type { TriggerDecision } from "./can-trigger-review.js";
import type { PermissionCache } from "./permission-cache.js";
import { recordThreadFeedback } from "./record-thread-feedback.js";
import type { RoundDependencies } from "./round-dependencies.js";
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
  return recordThreadFeedback(
    context.octokit,
    {
      delivery: context,
      installationId,
      repo,
      pullNumber,
      rootCommentId: root.id,
      actor: sender,
      kind: "resolved_without_fix",
      notOurs: "not a Gadfly finding's thread",
      unlessFixed: true,
    },
    deps,
    permissions,
  );
}
