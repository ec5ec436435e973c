import { canTriggerReview, type TriggerDecision } from "./can-trigger-review.js";
import { describeError } from "./describe-error.js";
import type { GitHubClient, RepoRef } from "./github-client.js";
import type { PermissionCache } from "./permission-cache.js";
import { recordFeedback } from "./record-feedback.js";
import type { RoundDependencies } from "./run-pull-request-round.js";

/** Inline comments whose reactions one poll reads at most (the latest posted): bounds its requests. */
export const POLLED_COMMENTS = 50;

const KINDS = { "+1": "thumbs_up", "-1": "thumbs_down" } as const;

export interface PollTarget {
  installationId: number;
  repo: RepoRef;
  pullNumber: number;
}

/**
 * Records the 👍 / 👎 on our inline comments of a pull request as feedback on their findings.
 * GitHub sends no webhook for reactions, so they are read when a round publishes and when a
 * comment or reply arrives. Each (finding, reaction, person) is recorded once; only people
 * with write access count; a reaction taken back stays counted. Never throws: a failed read
 * is logged and tried again at the next poll.
 */
export async function pollReactions(
  octokit: GitHubClient,
  target: PollTarget,
  deps: Pick<RoundDependencies, "store" | "botLogin" | "log" | "metrics">,
  permissions: PermissionCache<TriggerDecision>,
): Promise<void> {
  const { repo, pullNumber } = target;
  try {
    const posted = (await deps.store.postedInline(repo, pullNumber)).slice(-POLLED_COMMENTS);
    if (posted.length === 0) return;
    const recorded = new Set(
      (await deps.store.feedback(repo, pullNumber)).map((entry) =>
        [entry.fingerprint, entry.kind, entry.actor.toLowerCase()].join("\u0000"),
      ),
    );
    for (const comment of posted) {
      // One page: a finding's first hundred reactions are plenty to count.
      const { data: reactions } = await octokit.rest.reactions.listForPullRequestReviewComment({
        ...repo,
        comment_id: comment.commentId,
        per_page: 100,
      });
      for (const reaction of reactions) {
        const kind = KINDS[reaction.content as keyof typeof KINDS];
        const user = reaction.user;
        if (kind === undefined || user === null) continue;
        const key = [comment.fingerprint, kind, user.login.toLowerCase()].join("\u0000");
        if (recorded.has(key)) continue;
        const decision = await canTriggerReview(
          octokit,
          {
            installationId: target.installationId,
            repo,
            author: { login: user.login, type: user.type ?? "User" },
            botLogin: deps.botLogin,
          },
          permissions,
        );
        if (!decision.allowed) continue;
        await recordFeedback(
          { repo, pullNumber, fingerprint: comment.fingerprint, kind, actor: user.login },
          deps,
        );
        recorded.add(key);
      }
    }
  } catch (error) {
    deps.log.warn(
      { repo: `${repo.owner}/${repo.repo}`, pullNumber, err: describeError(error) },
      "could not read the reactions on our inline comments; read again at the next poll",
    );
  }
}
