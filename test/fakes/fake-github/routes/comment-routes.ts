import { authorAssociation } from "../author-association.js";
import { githubError, validationFailed } from "../github-error.js";
import { paginate } from "../paginate.js";
import { actingUser, type RepositoryRouteContext, repositoryRoute } from "../repository-route.js";
import type { Route, RouteResponse } from "../route.js";
import type { IssueCommentRecord } from "../types.js";
import { commentJson } from "../views/comment-json.js";
import { withPullRequest } from "./pull-request-routes.js";
import { createReaction, listReactions } from "./reactions.js";

export const maximumBodyLength = 65_536;

/** Issue comments on pull requests, and reactions to them. */
export const commentRoutes: Route[] = [
  repositoryRoute("GET", "/repos/{owner}/{repo}/issues/{issue_number}/comments", (context) =>
    withPullRequest(context, (pullRequest) => {
      const comments = [...context.state.comments.values()]
        .filter(
          (comment) =>
            isInRepository(context, comment) && comment.issueNumber === pullRequest.number,
        )
        .sort((left, right) => left.id - right.id);
      const page = paginate(comments, context);
      return {
        status: 200,
        json: page.items.map((comment) => toJson(context, comment)),
        headers: page.headers,
      };
    }),
  ),
  repositoryRoute("POST", "/repos/{owner}/{repo}/issues/{issue_number}/comments", (context) =>
    withPullRequest(context, (pullRequest) => {
      const body = bodyOf(context.body);
      const tooLong = checkLength(body);
      if (tooLong !== undefined) return tooLong;
      const { state, repository } = context;
      const id = state.nextId();
      const now = state.timestamp();
      const comment: IssueCommentRecord = {
        id,
        owner: repository.owner.login,
        repo: repository.name,
        issueNumber: pullRequest.number,
        body,
        user: actingUser(context),
        createdAt: now,
        updatedAt: now,
        htmlUrl: `${state.urls.html}/${repository.owner.login}/${repository.name}/pull/${pullRequest.number}#issuecomment-${id}`,
      };
      state.comments.set(id, comment);
      const json = toJson(context, comment);
      return { status: 201, json, headers: { location: String(json.url) } };
    }),
  ),
  repositoryRoute("GET", "/repos/{owner}/{repo}/issues/comments/{comment_id}", (context) =>
    withComment(context, (comment) => ({ status: 200, json: toJson(context, comment) })),
  ),
  repositoryRoute("PATCH", "/repos/{owner}/{repo}/issues/comments/{comment_id}", (context) =>
    withOwnComment(context, (comment) => {
      const body = bodyOf(context.body);
      const tooLong = checkLength(body);
      if (tooLong !== undefined) return tooLong;
      comment.body = body;
      comment.updatedAt = context.state.timestamp();
      return { status: 200, json: toJson(context, comment) };
    }),
  ),
  repositoryRoute("DELETE", "/repos/{owner}/{repo}/issues/comments/{comment_id}", (context) =>
    withOwnComment(context, (comment) => {
      context.state.comments.delete(comment.id);
      return { status: 204 };
    }),
  ),
  repositoryRoute(
    "GET",
    "/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions",
    (context) => withComment(context, (comment) => listReactions(context, comment.id)),
  ),
  repositoryRoute(
    "POST",
    "/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions",
    (context) => withComment(context, (comment) => createReaction(context, comment.id)),
  ),
];

function bodyOf(body: unknown): string {
  const value = (body as { body?: unknown } | undefined)?.body;
  return typeof value === "string" ? value : "";
}

function checkLength(body: string): RouteResponse | undefined {
  return body.length > maximumBodyLength
    ? validationFailed(
        "IssueComment",
        "data",
        "unprocessable",
        `Body is too long (maximum is ${maximumBodyLength} characters)`,
      )
    : undefined;
}

function isInRepository(context: RepositoryRouteContext, comment: IssueCommentRecord): boolean {
  return (
    comment.owner.toLowerCase() === context.repository.owner.login.toLowerCase() &&
    comment.repo.toLowerCase() === context.repository.name.toLowerCase()
  );
}

function withComment(
  context: RepositoryRouteContext,
  handle: (comment: IssueCommentRecord) => RouteResponse,
): RouteResponse {
  const comment = context.state.comments.get(Number(context.params.comment_id));
  return comment === undefined || !isInRepository(context, comment)
    ? githubError(404, "Not Found")
    : handle(comment);
}

// Gadfly must never touch a comment it did not write: the fake refuses it
// outright (GitHub would let an admin token through), so tests catch it.
function withOwnComment(
  context: RepositoryRouteContext,
  handle: (comment: IssueCommentRecord) => RouteResponse,
): RouteResponse {
  return withComment(context, (comment) =>
    comment.user.id === actingUser(context).id
      ? handle(comment)
      : githubError(403, "Resource not accessible by integration"),
  );
}

function toJson(context: RepositoryRouteContext, comment: IssueCommentRecord) {
  return commentJson(
    comment,
    authorAssociation(context.repository, comment.user),
    context.state.reactionsOn(comment.id),
    context.state.urls,
  );
}
