import type { FeedbackKind } from "../run/store/index.js";
import { canTriggerReview, type TriggerDecision } from "./can-trigger-review.js";
import type { GitHubClient, RepoRef } from "./github-client.js";
import { oncePerDelivery } from "./once-per-delivery.js";
import type { PermissionCache } from "./permission-cache.js";
import { recordFeedback } from "./record-feedback.js";
import type { RoundDependencies } from "./round-dependencies.js";
import type { StartOutcome } from "./start-round.js";

export interface ThreadFeedback {
  delivery: { id: string; name: string };
  installationId: number;
  repo: RepoRef;
  pullNumber: number;
  /** The id of the thread's first comment: ours, when the thread is a finding's. */
  rootCommentId: number;
  actor: { login: string; type?: string | undefined };
  kind: FeedbackKind;
  reason?: string | null | undefined;
  /** Why nothing is recorded when the thread is not one of our findings' (the caller's words). */
  notOurs: string;
  /** A thread whose finding a round found fixed takes no more feedback (a resolution after it). */
  unlessFixed?: boolean;
  /** Runs after the feedback is recorded, e.g. a 👍 on the reply. */
  acknowledge?: () => Promise<void>;
}

/**
 * Records one person's feedback on the finding whose inline comment opened a thread (a reply
 * with a feedback command, or the thread resolved), once per delivery, when that person has
 * write access; readers' feedback is ignored.
 */
export async function recordThreadFeedback(
  octokit: GitHubClient,
  feedback: ThreadFeedback,
  deps: RoundDependencies,
  permissions: PermissionCache<TriggerDecision>,
): Promise<StartOutcome> {
  const { repo, pullNumber, actor } = feedback;
  const posted = (await deps.store.postedInline(repo, pullNumber)).find(
    (entry) => entry.commentId === feedback.rootCommentId,
  );
  if (posted === undefined) return { kind: "skipped", reason: feedback.notOurs };
  if (feedback.unlessFixed === true && posted.fixedReplyId !== undefined) {
    return { kind: "skipped", reason: "the finding was fixed" };
  }
  const decision = await canTriggerReview(
    octokit,
    {
      installationId: feedback.installationId,
      repo,
      author: { login: actor.login, type: actor.type ?? "User" },
      botLogin: deps.botLogin,
    },
    permissions,
  );
  if (!decision.allowed) {
    return { kind: "skipped", reason: `feedback ignored: ${decision.reason}` };
  }
  return oncePerDelivery(feedback.delivery, deps, async () => {
    await recordFeedback(
      {
        repo,
        pullNumber,
        fingerprint: posted.fingerprint,
        kind: feedback.kind,
        actor: actor.login,
        ...(feedback.reason === undefined ? {} : { reason: feedback.reason }),
      },
      deps,
    );
    await feedback.acknowledge?.();
    return { kind: "skipped", reason: `feedback recorded: ${feedback.kind} by ${actor.login}` };
  });
}
