import type { ReactionRecord, ReviewCommentRecord, ReviewRecord, SiteUrls } from "../types.js";
import { reactionRollupJson } from "./reaction-rollup-json.js";
import { userJson } from "./user-json.js";

/** A pull-request review as `POST/GET …/pulls/{number}/reviews` shows it. */
export function reviewJson(review: ReviewRecord, urls: SiteUrls): Record<string, unknown> {
  return {
    id: review.id,
    node_id: Buffer.from(`017:PullRequestReview${review.id}`).toString("base64"),
    user: userJson(review.user, urls),
    body: review.body,
    state: review.state,
    html_url: review.htmlUrl,
    pull_request_url: `${urls.api}/repos/${review.owner}/${review.repo}/pulls/${review.pullNumber}`,
    author_association: "NONE",
    submitted_at: review.submittedAt ?? undefined,
    commit_id: review.commitId,
    _links: {
      html: { href: review.htmlUrl },
      pull_request: {
        href: `${urls.api}/repos/${review.owner}/${review.repo}/pulls/${review.pullNumber}`,
      },
    },
  };
}

/** An inline review comment as `GET …/pulls/{number}/comments` shows it, with its reactions' counts. */
export function reviewCommentJson(
  review: ReviewRecord,
  comment: ReviewCommentRecord,
  reactions: readonly ReactionRecord[],
  urls: SiteUrls,
): Record<string, unknown> {
  const apiUrl = `${urls.api}/repos/${review.owner}/${review.repo}`;
  return {
    url: `${apiUrl}/pulls/comments/${comment.id}`,
    pull_request_review_id: review.id,
    id: comment.id,
    node_id: Buffer.from(`024:PullRequestReviewComment${comment.id}`).toString("base64"),
    diff_hunk: comment.diffHunk,
    path: comment.path,
    position: comment.position,
    original_position: comment.position,
    commit_id: comment.commitId,
    original_commit_id: comment.commitId,
    user: userJson(comment.user, urls),
    body: comment.body,
    created_at: comment.createdAt,
    updated_at: comment.createdAt,
    html_url: comment.htmlUrl,
    pull_request_url: `${apiUrl}/pulls/${review.pullNumber}`,
    author_association: "NONE",
    _links: {
      self: { href: `${apiUrl}/pulls/comments/${comment.id}` },
      html: { href: comment.htmlUrl },
      pull_request: { href: `${apiUrl}/pulls/${review.pullNumber}` },
    },
    start_line: comment.startLine,
    original_start_line: comment.startLine,
    start_side: comment.startSide,
    line: comment.line,
    original_line: comment.line,
    side: comment.side,
    subject_type: "line",
    reactions: reactionRollupJson(`${apiUrl}/pulls/comments/${comment.id}/reactions`, reactions),
    ...(comment.inReplyToId === undefined ? {} : { in_reply_to_id: comment.inReplyToId }),
  };
}
