import { createOnce } from "./create-once.js";
import type { GitHubClient, RepoRef } from "./github-client.js";
import { retrySecondaryRateLimit } from "./retry-secondary-rate-limit.js";

/** A review thread we reply under: its pull request and its first comment. */
export interface ReplyThread {
  repo: RepoRef;
  pullNumber: number;
  rootCommentId: number;
}

/**
 * Posts our reply under a review thread's first comment, once: a reply GitHub created without
 * confirming is found among the pull request's review comments (`findOwnReply`) instead of
 * posted again. `isOurs` tells our reply apart by its body (its marker, its first line).
 */
export async function postOwnReply(
  octokit: GitHubClient,
  thread: ReplyThread,
  body: string,
  mine: { botLogin: string; isOurs: (body: string) => boolean },
): Promise<number> {
  return createOnce(
    async () => {
      const { data } = await retrySecondaryRateLimit(() =>
        octokit.rest.pulls.createReplyForReviewComment({
          ...thread.repo,
          pull_number: thread.pullNumber,
          comment_id: thread.rootCommentId,
          body,
        }),
      );
      return data.id;
    },
    () => findOwnReply(octokit, thread, mine),
  );
}

/** Our reply under the thread's first comment whose body `isOurs` accepts, if GitHub has one. */
export async function findOwnReply(
  octokit: GitHubClient,
  thread: ReplyThread,
  mine: { botLogin: string; isOurs: (body: string) => boolean },
): Promise<number | null> {
  const comments = await octokit.paginate(octokit.rest.pulls.listReviewComments, {
    ...thread.repo,
    pull_number: thread.pullNumber,
    per_page: 100,
  });
  const found = comments.find(
    (comment) =>
      comment.in_reply_to_id === thread.rootCommentId &&
      isOurLogin(comment.user?.login ?? null, mine.botLogin) &&
      mine.isOurs(comment.body),
  );
  return found?.id ?? null;
}

/** Our app's login: REST shows `name[bot]`, GraphQL the bare `name`. */
export function isOurLogin(login: string | null, botLogin: string): boolean {
  return login !== null && (login === botLogin || `${login}[bot]` === botLogin);
}
