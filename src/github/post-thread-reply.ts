import { startsWithMarker, threadAnswerMarker } from "../render/index.js";
import { createOnce } from "./create-once.js";
import type { GitHubClient, RepoRef } from "./github-client.js";
import { retrySecondaryRateLimit } from "./retry-secondary-rate-limit.js";

/**
 * Posts our answer under the thread's first comment, once: a reply GitHub created without
 * confirming is found by its marker (the asking reply's id) among our replies on that thread.
 */
export async function postThreadReply(
  octokit: GitHubClient,
  target: { repo: RepoRef; pullNumber: number; rootCommentId: number; replyCommentId: number },
  body: string,
  botLogin: string,
): Promise<number> {
  return createOnce(
    async () => {
      const { data } = await retrySecondaryRateLimit(() =>
        octokit.rest.pulls.createReplyForReviewComment({
          ...target.repo,
          pull_number: target.pullNumber,
          comment_id: target.rootCommentId,
          body,
        }),
      );
      return data.id;
    },
    () => findThreadReply(octokit, target, botLogin),
  );
}

/** Our reply to `replyCommentId` on the thread, if GitHub has one (found by its marker). */
export async function findThreadReply(
  octokit: GitHubClient,
  target: { repo: RepoRef; pullNumber: number; rootCommentId: number; replyCommentId: number },
  botLogin: string,
): Promise<number | null> {
  const marker = threadAnswerMarker(target.replyCommentId);
  const comments = await octokit.paginate(octokit.rest.pulls.listReviewComments, {
    ...target.repo,
    pull_number: target.pullNumber,
    per_page: 100,
  });
  const found = comments.find(
    (comment) =>
      comment.in_reply_to_id === target.rootCommentId &&
      comment.user?.login === botLogin &&
      startsWithMarker(comment.body, marker),
  );
  return found?.id ?? null;
}
