import { canTriggerReview, type TriggerDecision } from "./can-trigger-review.js";
import { describeError } from "./describe-error.js";
import type { GitHubClient, RepoRef } from "./github-client.js";
import type { PermissionCache } from "./permission-cache.js";
import { recordFeedback } from "./record-feedback.js";
import type { RoundDependencies } from "./round-dependencies.js";

/** Inline comments whose reactions one poll reads at most (the latest posted): bounds its requests. */
export const POLLED_COMMENTS = 50;

/** Pages of the PR's review comments (100 each) one poll lists at most: bounds its requests. */
export const LISTED_COMMENT_PAGES = 10;

/** What a poll needs of a posted inline comment (the store's PostedInline). */
interface Posted {
  fingerprint: string;
  commentId: number;
}

const KINDS = { "+1": "thumbs_up", "-1": "thumbs_down" } as const;

export interface PollTarget {
  installationId: number;
  repo: RepoRef;
  pullNumber: number;
}

/**
 * Records the 👍 / 👎 on our inline comments of a pull request as feedback on their findings.
 * GitHub sends no webhook for reactions, so they are read when a round publishes and when a
 * comment or reply arrives: one listing of the PR's review comments (their reaction counts),
 * then the reactions of only the comments whose counts outgrew what is recorded. Each
 * (finding, reaction, person) is recorded once; only people with write access count, and a
 * reaction of someone who cannot write is remembered as read (`seenReactions`), so it is not
 * read again; a reaction taken back stays counted. Polled only on a writer's comment (the
 * handlers check first) and when a round publishes. Never throws: a failed read is logged and tried again at
 * the next poll.
 */
export async function pollReactions(
  octokit: GitHubClient,
  target: PollTarget,
  deps: Pick<RoundDependencies, "store" | "botLogin" | "log" | "metrics" | "seenReactions">,
  permissions: PermissionCache<TriggerDecision>,
): Promise<void> {
  const { repo, pullNumber } = target;
  const pull = `${target.installationId}/${repo.owner}/${repo.repo}#${pullNumber}`.toLowerCase();
  try {
    const posted = (await deps.store.postedInline(repo, pullNumber)).slice(-POLLED_COMMENTS);
    if (posted.length === 0) return;
    const feedback = await deps.store.feedback(repo, pullNumber);
    const recorded = new Set(
      feedback.map((entry) =>
        [entry.fingerprint, entry.kind, entry.actor.toLowerCase()].join("\u0000"),
      ),
    );
    // A reaction read before and not recorded (a reader's) counts as known: it is not read again.
    const ignored = [...(deps.seenReactions?.of(pull) ?? [])].map((key) => {
      const [fingerprint = "", kind = ""] = key.split("\u0000");
      return { fingerprint, kind };
    });
    const changed = await changedComments(octokit, target, posted, [...feedback, ...ignored]);
    for (const comment of changed) {
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
        if (recorded.has(key) || deps.seenReactions?.of(pull).has(key) === true) continue;
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
        if (!decision.allowed) {
          deps.seenReactions?.add(pull, key);
          continue;
        }
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

/**
 * The posted comments whose reactions may hold something not recorded yet, read from the
 * `reactions` rollup of the PR's review comments (one request per hundred comments): those
 * whose 👍 (or 👎) count, summed over the finding's comments, exceeds the 👍 (👎) rows recorded
 * for the finding. A quiet PR then costs no reactions-list request. Known gap: a reaction taken
 * back and another given leave the counts equal, so the new one waits until that count grows.
 */
async function changedComments(
  octokit: GitHubClient,
  target: PollTarget,
  posted: readonly Posted[],
  feedback: readonly { fingerprint: string; kind: string }[],
): Promise<Posted[]> {
  const byId = new Map(posted.map((comment) => [comment.commentId, comment]));
  let pages = 0;
  const listed = await octokit.paginate(
    octokit.rest.pulls.listReviewComments,
    { ...target.repo, pull_number: target.pullNumber, per_page: 100 },
    (response, done) => {
      pages += 1;
      if (pages >= LISTED_COMMENT_PAGES) done();
      return response.data;
    },
  );
  const count = (fingerprint: string, kind: string) => `${fingerprint}\u0000${kind}`;
  const seen = new Map<string, number>();
  const ours: Array<{ comment: Posted; counts: Record<keyof typeof KINDS, number> }> = [];
  for (const listedComment of listed) {
    const comment = byId.get(listedComment.id);
    if (comment === undefined) continue;
    const counts = {
      "+1": listedComment.reactions?.["+1"] ?? 0,
      "-1": listedComment.reactions?.["-1"] ?? 0,
    };
    ours.push({ comment, counts });
    for (const content of ["+1", "-1"] as const) {
      const key = count(comment.fingerprint, KINDS[content]);
      seen.set(key, (seen.get(key) ?? 0) + counts[content]);
    }
  }
  const recorded = new Map<string, number>();
  for (const entry of feedback) {
    const key = count(entry.fingerprint, entry.kind);
    recorded.set(key, (recorded.get(key) ?? 0) + 1);
  }
  const grew = (fingerprint: string, content: keyof typeof KINDS) => {
    const key = count(fingerprint, KINDS[content]);
    return (seen.get(key) ?? 0) > (recorded.get(key) ?? 0);
  };
  return ours
    .filter(
      ({ comment, counts }) =>
        (counts["+1"] > 0 && grew(comment.fingerprint, "+1")) ||
        (counts["-1"] > 0 && grew(comment.fingerprint, "-1")),
    )
    .map(({ comment }) => comment);
}
