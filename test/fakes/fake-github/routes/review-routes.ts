import { diffTrees } from "../diff-trees.js";
import { githubError, validationFailed } from "../github-error.js";
import { paginate } from "../paginate.js";
import { actingUser, type RepositoryRouteContext, repositoryRoute } from "../repository-route.js";
import { type ReviewCommentInput, resolveReviewComments } from "../resolve-review-comments.js";
import { findReviewComment } from "../review-threads.js";
import type { Route, RouteResponse } from "../route.js";
import type { FileChange, PullRequestRecord, ReviewRecord, ReviewState } from "../types.js";
import { reviewCommentJson, reviewJson } from "../views/review-json.js";
import { maximumBodyLength } from "./comment-routes.js";
import { withPullRequest } from "./pull-request-routes.js";
import { createReaction, listReactions } from "./reactions.js";

interface CreateReviewBody {
  commit_id?: string;
  body?: string;
  event?: "APPROVE" | "REQUEST_CHANGES" | "COMMENT";
  comments?: ReviewCommentInput[];
}

const states: Record<string, ReviewState> = {
  APPROVE: "APPROVED",
  REQUEST_CHANGES: "CHANGES_REQUESTED",
  COMMENT: "COMMENTED",
};

/** Pull-request reviews with their inline comments. */
export const reviewRoutes: Route[] = [
  repositoryRoute("POST", "/repos/{owner}/{repo}/pulls/{pull_number}/reviews", (context) =>
    withPullRequest(context, (pullRequest) => createReview(context, pullRequest)),
  ),
  repositoryRoute("GET", "/repos/{owner}/{repo}/pulls/{pull_number}/reviews", (context) =>
    withPullRequest(context, (pullRequest) => {
      const page = paginate(reviewsOf(context, pullRequest), context);
      return {
        status: 200,
        json: page.items.map((review) => reviewJson(review, context.state.urls)),
        headers: page.headers,
      };
    }),
  ),
  repositoryRoute(
    "GET",
    "/repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}",
    (context) =>
      withReview(context, (review) => ({
        status: 200,
        json: reviewJson(review, context.state.urls),
      })),
  ),
  repositoryRoute(
    "GET",
    "/repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}/comments",
    (context) =>
      withReview(context, (review) => {
        const page = paginate(review.comments, context);
        return {
          status: 200,
          json: page.items.map((comment) =>
            reviewCommentJson(
              review,
              comment,
              context.state.reactionsOn(comment.id),
              context.state.urls,
            ),
          ),
          headers: page.headers,
        };
      }),
  ),
  repositoryRoute(
    "POST",
    "/repos/{owner}/{repo}/pulls/{pull_number}/comments/{comment_id}/replies",
    (context) => withPullRequest(context, (pullRequest) => createReply(context, pullRequest)),
  ),
  repositoryRoute("GET", "/repos/{owner}/{repo}/pulls/comments/{comment_id}/reactions", (context) =>
    withReviewComment(context, (id) => listReactions(context, id)),
  ),
  repositoryRoute(
    "POST",
    "/repos/{owner}/{repo}/pulls/comments/{comment_id}/reactions",
    (context) => withReviewComment(context, (id) => createReaction(context, id)),
  ),
  repositoryRoute("GET", "/repos/{owner}/{repo}/pulls/{pull_number}/comments", (context) =>
    withPullRequest(context, (pullRequest) => {
      const pairs = reviewsOf(context, pullRequest)
        .filter((review) => review.state !== "PENDING")
        .flatMap((review) => review.comments.map((comment) => ({ review, comment })));
      const page = paginate(pairs, context);
      return {
        status: 200,
        json: page.items.map(({ review, comment }) =>
          reviewCommentJson(
            review,
            comment,
            context.state.reactionsOn(comment.id),
            context.state.urls,
          ),
        ),
        headers: page.headers,
      };
    }),
  ),
];

function createReview(
  context: RepositoryRouteContext,
  pullRequest: PullRequestRecord,
): RouteResponse {
  const { state, repository } = context;
  const input = (context.body ?? {}) as CreateReviewBody;
  const commitId = input.commit_id ?? pullRequest.headSha;
  const files = filesAt(context, pullRequest, commitId);
  if (files === undefined) {
    return githubError(422, "Unprocessable Entity", {
      errors: ["Pull request review commit_id is not part of the pull request"],
    });
  }
  const body = input.body ?? "";
  if (body.length > maximumBodyLength) {
    return validationFailed(
      "PullRequestReview",
      "body",
      "custom",
      `Body is too long (maximum is ${maximumBodyLength} characters)`,
    );
  }
  const comments = input.comments ?? [];
  if (comments.some((comment) => comment.body.length > maximumBodyLength)) {
    return validationFailed(
      "PullRequestReviewComment",
      "body",
      "custom",
      `Body is too long (maximum is ${maximumBodyLength} characters)`,
    );
  }
  if (input.event === "REQUEST_CHANGES" && body === "") {
    return githubError(422, "Unprocessable Entity", {
      errors: ["Review body is required for REQUEST_CHANGES"],
    });
  }
  const user = actingUser(context);
  const reviewState = input.event === undefined ? "PENDING" : (states[input.event] ?? "COMMENTED");
  if (
    reviewState === "PENDING" &&
    reviewsOf(context, pullRequest).some(
      (review) => review.state === "PENDING" && review.user.id === user.id,
    )
  ) {
    return githubError(422, "Unprocessable Entity", {
      errors: ["User can only have one pending review per pull request"],
    });
  }
  const placed = resolveReviewComments(files, comments);
  if (placed.errors.length > 0) {
    return githubError(422, "Unprocessable Entity", { errors: placed.errors });
  }
  const id = state.nextId();
  const now = state.timestamp();
  const pullUrl = `${state.urls.html}/${repository.owner.login}/${repository.name}/pull/${pullRequest.number}`;
  const review: ReviewRecord = {
    id,
    owner: repository.owner.login,
    repo: repository.name,
    pullNumber: pullRequest.number,
    user,
    body,
    state: reviewState,
    commitId,
    submittedAt: reviewState === "PENDING" ? null : now,
    htmlUrl: `${pullUrl}#pullrequestreview-${id}`,
    comments: [],
  };
  for (const comment of placed.comments) {
    const commentId = state.nextId();
    review.comments.push({
      ...comment,
      id: commentId,
      reviewId: id,
      user,
      commitId,
      createdAt: now,
      htmlUrl: `${pullUrl}#discussion_r${commentId}`,
    });
  }
  state.reviews.set(id, review);
  return { status: 200, json: reviewJson(review, state.urls) };
}

/**
 * A reply joins the thread of a top-level review comment. As on GitHub, it is a review of its
 * own (COMMENTED, empty body) holding one comment with `in_reply_to_id`; replying to a reply is
 * refused.
 */
/** A review comment of the route's repository (pending reviews' comments are not found). */
function withReviewComment(
  context: RepositoryRouteContext,
  handle: (commentId: number) => RouteResponse,
): RouteResponse {
  const found = findReviewComment(context.state, Number(context.params.comment_id));
  const { repository } = context;
  if (
    found === undefined ||
    found.review.state === "PENDING" ||
    found.review.owner.toLowerCase() !== repository.owner.login.toLowerCase() ||
    found.review.repo.toLowerCase() !== repository.name.toLowerCase()
  ) {
    return githubError(404, "Not Found");
  }
  return handle(found.comment.id);
}

function createReply(
  context: RepositoryRouteContext,
  pullRequest: PullRequestRecord,
): RouteResponse {
  const { state, repository } = context;
  const body = String((context.body as { body?: unknown } | undefined)?.body ?? "");
  const found = findReviewComment(state, Number(context.params.comment_id));
  if (
    found === undefined ||
    found.review.pullNumber !== pullRequest.number ||
    found.review.owner !== repository.owner.login ||
    found.review.repo !== repository.name
  ) {
    return githubError(404, "Not Found");
  }
  if (found.comment.inReplyToId !== undefined) {
    return githubError(422, "Unprocessable Entity", {
      errors: ["Replies to replies are not supported"],
    });
  }
  if (body.length > maximumBodyLength) {
    return validationFailed(
      "PullRequestReviewComment",
      "body",
      "custom",
      `Body is too long (maximum is ${maximumBodyLength} characters)`,
    );
  }
  const user = actingUser(context);
  const now = state.timestamp();
  const pullUrl = `${state.urls.html}/${repository.owner.login}/${repository.name}/pull/${pullRequest.number}`;
  const reviewId = state.nextId();
  const commentId = state.nextId();
  const root = found.comment;
  const review: ReviewRecord = {
    id: reviewId,
    owner: repository.owner.login,
    repo: repository.name,
    pullNumber: pullRequest.number,
    user,
    body: "",
    state: "COMMENTED",
    commitId: root.commitId,
    submittedAt: now,
    htmlUrl: `${pullUrl}#pullrequestreview-${reviewId}`,
    comments: [
      {
        id: commentId,
        reviewId,
        path: root.path,
        line: root.line,
        side: root.side,
        startLine: root.startLine,
        startSide: root.startSide,
        position: root.position,
        body,
        user,
        commitId: root.commitId,
        diffHunk: root.diffHunk,
        createdAt: now,
        htmlUrl: `${pullUrl}#discussion_r${commentId}`,
        inReplyToId: root.id,
      },
    ],
  };
  state.reviews.set(reviewId, review);
  const [reply] = review.comments;
  return { status: 201, json: reviewCommentJson(review, reply ?? root, [], state.urls) };
}

// The PR's files as of `commitId`: its head, an earlier head, or any commit
// the repository knows (comments are then placed on that commit's diff).
function filesAt(
  context: RepositoryRouteContext,
  pullRequest: PullRequestRecord,
  commitId: string,
): FileChange[] | undefined {
  if (commitId === pullRequest.headSha) return pullRequest.files;
  const commit = context.repository.commits.get(commitId);
  const base = context.repository.commits.get(pullRequest.baseSha);
  if (commit === undefined || base === undefined) return undefined;
  return diffTrees(base.tree, commit.tree, pullRequest.renames);
}

function reviewsOf(
  context: RepositoryRouteContext,
  pullRequest: PullRequestRecord,
): ReviewRecord[] {
  return [...context.state.reviews.values()].filter(
    (review) =>
      review.owner === context.repository.owner.login &&
      review.repo === context.repository.name &&
      review.pullNumber === pullRequest.number,
  );
}

function withReview(
  context: RepositoryRouteContext,
  handle: (review: ReviewRecord) => RouteResponse,
): RouteResponse {
  return withPullRequest(context, (pullRequest) => {
    const review = context.state.reviews.get(Number(context.params.review_id));
    return review === undefined ||
      review.pullNumber !== pullRequest.number ||
      review.owner !== context.repository.owner.login ||
      review.repo !== context.repository.name
      ? githubError(404, "Not Found")
      : handle(review);
  });
}
