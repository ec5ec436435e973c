import type { FakeState } from "../fake-state.js";
import {
  findReviewComment,
  type ReviewThread,
  reviewThreadsOf,
  rootCommentIdOf,
} from "../review-threads.js";
import type { Identity } from "../route.js";
import type {
  PullRequestRecord,
  RepositoryRecord,
  ReviewCommentRecord,
  ReviewRecord,
  UserRecord,
} from "../types.js";
import { type ConnectionArgs, connection } from "./connection.js";
import { FakeGraphqlError } from "./fake-graphql-error.js";

// Plain objects whose properties are the schema's fields: a value, or a function of the
// field's arguments. A field left out is one the fake does not serve (see execute-graphql.ts).
type GraphqlObject = Record<string, unknown>;

interface Caller {
  state: FakeState;
  identity: Identity;
}

/** The Query root: what Gadfly reads. */
export function queryRoot(caller: Caller): GraphqlObject {
  return {
    repository: ({ owner, name }: { owner: string; name: string }) => {
      const repository = caller.state.findRepository(owner, name);
      if (repository === undefined || !canReach(caller, repository)) {
        throw new FakeGraphqlError(
          "NOT_FOUND",
          `Could not resolve to a Repository with the name '${owner}/${name}'.`,
          "answer",
        );
      }
      return repositoryObject(caller, repository);
    },
  };
}

/** The Mutation root: resolving and unresolving review threads. */
export function mutationRoot(caller: Caller): GraphqlObject {
  const setResolved =
    (resolved: boolean) =>
    ({ input }: { input: { threadId: string; clientMutationId?: string | null } }) => {
      const rootId = rootCommentIdOf(input.threadId);
      const found = rootId === undefined ? undefined : findReviewComment(caller.state, rootId);
      const repository =
        found === undefined
          ? undefined
          : caller.state.findRepository(found.review.owner, found.review.repo);
      if (found === undefined || repository === undefined || !canReach(caller, repository)) {
        throw new FakeGraphqlError(
          "NOT_FOUND",
          `Could not resolve to a node with the global id of '${input.threadId}'`,
          "answer",
        );
      }
      if (resolved) caller.state.resolvedThreads.set(found.comment.id, actor(caller));
      else caller.state.resolvedThreads.delete(found.comment.id);
      const thread = reviewThreadsOf(
        caller.state,
        found.review.owner,
        found.review.repo,
        found.review.pullNumber,
      ).find((candidate) => candidate.id === input.threadId);
      return {
        clientMutationId: input.clientMutationId ?? null,
        thread: thread === undefined ? null : threadObject(caller, thread),
      };
    };
  return {
    resolveReviewThread: setResolved(true),
    unresolveReviewThread: setResolved(false),
  };
}

function canReach(caller: Caller, repository: RepositoryRecord): boolean {
  const { identity } = caller;
  if (identity.kind === "installation") {
    return (
      identity.installationId === undefined || identity.installationId === repository.installationId
    );
  }
  return identity.kind === "user" || !repository.private;
}

function actor(caller: Caller): UserRecord {
  const { identity } = caller;
  return identity.kind === "installation" || identity.kind === "user"
    ? identity.user
    : caller.state.bot;
}

/** An Actor as GraphQL shows it: a bot's login has no `[bot]` suffix there. */
export function actorObject(caller: Caller, user: UserRecord): GraphqlObject {
  const login = user.type === "Bot" ? user.login.replace(/\[bot\]$/, "") : user.login;
  return {
    __typename: user.type,
    login,
    databaseId: user.id,
    url: `${caller.state.urls.html}/${user.type === "Bot" ? `apps/${login}` : login}`,
  };
}

function repositoryObject(caller: Caller, repository: RepositoryRecord): GraphqlObject {
  return {
    id: Buffer.from(`010:Repository${repository.id}`).toString("base64"),
    databaseId: repository.id,
    name: repository.name,
    nameWithOwner: `${repository.owner.login}/${repository.name}`,
    isPrivate: repository.private,
    owner: actorObject(caller, repository.owner),
    pullRequest: ({ number }: { number: number }) => {
      const pullRequest = repository.pullRequests.get(number);
      if (pullRequest === undefined) {
        throw new FakeGraphqlError(
          "NOT_FOUND",
          `Could not resolve to a PullRequest with the number of ${number}.`,
          "answer",
        );
      }
      return pullRequestObject(caller, repository, pullRequest);
    },
  };
}

function pullRequestObject(
  caller: Caller,
  repository: RepositoryRecord,
  pullRequest: PullRequestRecord,
): GraphqlObject {
  return {
    id: Buffer.from(`011:PullRequest${pullRequest.id}`).toString("base64"),
    databaseId: pullRequest.id,
    number: pullRequest.number,
    title: pullRequest.title,
    state: pullRequest.merged ? "MERGED" : pullRequest.state.toUpperCase(),
    headRefOid: pullRequest.headSha,
    reviewThreads: (args: ConnectionArgs) =>
      connection(
        reviewThreadsOf(
          caller.state,
          repository.owner.login,
          repository.name,
          pullRequest.number,
        ).map((thread) => threadObject(caller, thread)),
        args,
        "reviewThreads",
      ),
  };
}

function threadObject(caller: Caller, thread: ReviewThread): GraphqlObject {
  const root = thread.comments[0]?.comment;
  return {
    id: thread.id,
    isResolved: thread.resolvedBy !== null,
    isCollapsed: thread.resolvedBy !== null,
    // GraphQL's resolvedBy is a User: a bot that resolved shows as nobody.
    resolvedBy:
      thread.resolvedBy === null || thread.resolvedBy.type === "Bot"
        ? null
        : actorObject(caller, thread.resolvedBy),
    path: root?.path ?? "",
    line: root?.line ?? null,
    startLine: root?.startLine ?? null,
    diffSide: root?.side ?? "RIGHT",
    viewerCanResolve: true,
    viewerCanUnresolve: true,
    viewerCanReply: true,
    comments: (args: ConnectionArgs) =>
      connection(
        thread.comments.map(({ review, comment }) => commentObject(caller, review, comment)),
        args,
        "comments",
      ),
  };
}

function commentObject(
  caller: Caller,
  review: ReviewRecord,
  comment: ReviewCommentRecord,
): GraphqlObject {
  const viewer = actor(caller);
  return {
    id: Buffer.from(`024:PullRequestReviewComment${comment.id}`).toString("base64"),
    databaseId: comment.id,
    fullDatabaseId: String(comment.id),
    body: comment.body,
    author: actorObject(caller, comment.user),
    viewerDidAuthor: comment.user.id === viewer.id,
    createdAt: comment.createdAt,
    url: comment.htmlUrl,
    path: comment.path,
    line: comment.line,
    commit: { oid: comment.commitId },
    pullRequestReview: {
      databaseId: review.id,
      id: Buffer.from(`017:PullRequestReview${review.id}`).toString("base64"),
    },
    replyTo: () => {
      const parent =
        comment.inReplyToId === undefined
          ? undefined
          : findReviewComment(caller.state, comment.inReplyToId);
      return parent === undefined ? null : commentObject(caller, parent.review, parent.comment);
    },
  };
}
