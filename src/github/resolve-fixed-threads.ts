import { findingMarkerIn } from "../render/index.js";
import type { RunStore } from "../run/store/index.js";
import { describeError } from "./describe-error.js";
import type { GitHubClient, RepoRef } from "./github-client.js";
import { isOurLogin, postOwnReply } from "./post-own-reply.js";

export interface FixedThreadsRequest {
  repo: RepoRef;
  pullNumber: number;
  /** The head the round reviewed: the reply names it. */
  headSha: string;
  /** Our bot's login as REST spells it (`gadfly[bot]`). */
  botLogin: string;
  /** Fingerprints of the findings this round found fixed (the comparison's `fixed`). */
  fixed: Iterable<string>;
  /** The PR's inline comments we posted (`RunStore.postedInline`). */
  posted: readonly PostedComment[];
}

/** An inline comment we posted for a finding, as `RunStore.postedInline` lists it. */
export interface PostedComment {
  fingerprint: string;
  commentId: number;
  /** Our "fixed" reply under it, when an earlier call posted one. */
  fixedReplyId?: number;
}

export type FixedThreadOutcome =
  /** Replied (now or in an earlier round) and resolved now. */
  | "resolved"
  /** Resolved already, by a person or an earlier round: left alone. */
  | "already-resolved"
  /** The comment is not our bot's, or carries no finding marker: never touched. */
  | "not-ours"
  /** No thread starts with the comment any more (deleted). */
  | "no-thread"
  /** GitHub refused or failed (a GraphQL error, a 403 when the app lacks permission): see `error`. */
  | "failed";

export interface FixedThread {
  fingerprint: string;
  commentId: number;
  outcome: FixedThreadOutcome;
  /** True when this call posted the "fixed" reply. */
  replied: boolean;
  /** For the log: what failed (describeError's words). */
  error?: string;
}

/** A pull request's threads are read 100 at a time, and at most this many pages. */
const THREAD_PAGE_SIZE = 100;
const MAX_THREAD_PAGES = 50;
/**
 * A thread's latest replies, read for a "fixed" reply of ours that was posted but not
 * recorded (the process died between the two): our reply is then among the last ones.
 */
const RECENT_REPLIES = 20;

const THREADS_QUERY = `
  query GadflyReviewThreads($owner: String!, $name: String!, $number: Int!, $after: String) {
    repository(owner: $owner, name: $name) {
      pullRequest(number: $number) {
        reviewThreads(first: ${THREAD_PAGE_SIZE}, after: $after) {
          nodes {
            id
            isResolved
            comments(first: 1) { nodes { databaseId body author { login } } }
            replies: comments(last: ${RECENT_REPLIES}) { nodes { databaseId body author { login } } }
          }
          pageInfo { hasNextPage endCursor }
        }
      }
    }
  }`;

const RESOLVE_MUTATION = `
  mutation GadflyResolveThread($threadId: ID!) {
    resolveReviewThread(input: { threadId: $threadId }) { thread { id isResolved } }
  }`;

interface ThreadPage {
  repository: {
    pullRequest: {
      reviewThreads: {
        nodes: ({
          id: string;
          isResolved: boolean;
          comments: { nodes: (ThreadComment | null)[] };
          replies: { nodes: (ThreadComment | null)[] };
        } | null)[];
        pageInfo: { hasNextPage: boolean; endCursor: string | null };
      };
    } | null;
  } | null;
}

interface ThreadComment {
  databaseId: number | null;
  body: string;
  author: { login: string } | null;
}

interface ThreadHead {
  id: string;
  isResolved: boolean;
  body: string;
  authorLogin: string | null;
  /** The latest "fixed" reply of ours in the thread, if one is among its recent replies. */
  ourFixedReplyId: number | null;
}

/** The short line answering a fixed finding's comment. */
export function fixedReplyBody(headSha: string): string {
  return `Fixed in \`${headSha.slice(0, 7)}\`.`;
}

const FIXED_REPLY_RE = /^Fixed in `[0-9a-f]{7}`\.$/;

/**
 * Threads follow the code: under each inline comment of ours whose finding this round found
 * fixed, replies "Fixed in `abc1234`." (once: the reply is recorded in the store, and one
 * posted by a run that died before recording it is found in the thread and recorded instead)
 * and resolves the thread. A thread already resolved — by a person or an earlier round — gets neither; a
 * comment that is not our bot's (or carries no finding marker) is never touched. Never throws:
 * a GraphQL error or a refusal (the app may lack permission) is returned as `failed` for the
 * caller to log, and the round goes on.
 */
export async function resolveFixedThreads(
  octokit: GitHubClient,
  request: FixedThreadsRequest,
  deps: { store: Pick<RunStore, "saveFixedReply"> },
): Promise<FixedThread[]> {
  const fixed = new Set(request.fixed);
  const targets = request.posted.filter((posted) => fixed.has(posted.fingerprint));
  if (targets.length === 0) return [];
  let threads: Map<number, ThreadHead>;
  try {
    threads = await findThreads(
      octokit,
      request,
      new Set(targets.map((target) => target.commentId)),
    );
  } catch (error) {
    const described = describeError(error);
    return targets.map((target) => ({
      fingerprint: target.fingerprint,
      commentId: target.commentId,
      outcome: "failed",
      replied: false,
      error: described,
    }));
  }
  const results: FixedThread[] = [];
  for (const target of targets) {
    results.push(await settle(octokit, request, deps, target, threads.get(target.commentId)));
  }
  return results;
}

async function settle(
  octokit: GitHubClient,
  request: FixedThreadsRequest,
  deps: { store: Pick<RunStore, "saveFixedReply"> },
  target: PostedComment,
  thread: ThreadHead | undefined,
): Promise<FixedThread> {
  const result = (outcome: FixedThreadOutcome, replied: boolean, error?: unknown): FixedThread => ({
    fingerprint: target.fingerprint,
    commentId: target.commentId,
    outcome,
    replied,
    ...(error === undefined ? {} : { error: describeError(error) }),
  });
  if (thread === undefined) return result("no-thread", false);
  if (!isOurs(thread, request.botLogin)) return result("not-ours", false);
  if (thread.isResolved) return result("already-resolved", false);
  let replied = false;
  if (target.fixedReplyId === undefined) {
    try {
      // One posted by a run that died before recording it is recorded now, not posted again.
      let replyId = thread.ourFixedReplyId;
      if (replyId === null) {
        const firstLine = fixedReplyBody(request.headSha).split("\n")[0] ?? "";
        replyId = await postOwnReply(
          octokit,
          { repo: request.repo, pullNumber: request.pullNumber, rootCommentId: target.commentId },
          fixedReplyBody(request.headSha),
          { botLogin: request.botLogin, isOurs: (body) => body.startsWith(firstLine) },
        );
        replied = true;
      }
      await deps.store.saveFixedReply(
        request.repo,
        request.pullNumber,
        target.fingerprint,
        target.commentId,
        replyId,
      );
    } catch (error) {
      // Unanswered, the thread is left open: resolving it without a word would hide why.
      return result("failed", replied, error);
    }
  }
  try {
    await octokit.graphql(RESOLVE_MUTATION, { threadId: thread.id });
  } catch (error) {
    return result("failed", replied, error);
  }
  return result("resolved", replied);
}

// GraphQL spells a bot's login without `[bot]`; the marker says Gadfly wrote it as a finding.
function isOurs(thread: ThreadHead, botLogin: string): boolean {
  return isOurLogin(thread.authorLogin, botLogin) && findingMarkerIn(thread.body) !== null;
}

/** The newest reply (not the thread's first comment) our bot wrote as a "fixed" reply. */
function ourFixedReply(
  replies: readonly (ThreadComment | null)[],
  headId: number,
  botLogin: string,
): number | null {
  for (let index = replies.length - 1; index >= 0; index--) {
    const reply = replies[index];
    if (
      reply?.databaseId != null &&
      reply.databaseId !== headId &&
      isOurLogin(reply.author?.login ?? null, botLogin) &&
      FIXED_REPLY_RE.test(reply.body.trim())
    ) {
      return reply.databaseId;
    }
  }
  return null;
}

/** The threads starting with the wanted comments, paging only until all are found. */
async function findThreads(
  octokit: GitHubClient,
  request: FixedThreadsRequest,
  wanted: ReadonlySet<number>,
): Promise<Map<number, ThreadHead>> {
  const found = new Map<number, ThreadHead>();
  let after: string | null = null;
  for (let page = 0; page < MAX_THREAD_PAGES && found.size < wanted.size; page++) {
    const answer: ThreadPage = await octokit.graphql<ThreadPage>(THREADS_QUERY, {
      owner: request.repo.owner,
      name: request.repo.repo,
      number: request.pullNumber,
      after,
    });
    const connection = answer.repository?.pullRequest?.reviewThreads;
    if (connection === undefined) break;
    for (const node of connection.nodes) {
      const head = node?.comments.nodes[0];
      if (node === null || head === null || head === undefined || head.databaseId === null) {
        continue;
      }
      if (wanted.has(head.databaseId)) {
        found.set(head.databaseId, {
          id: node.id,
          isResolved: node.isResolved,
          body: head.body,
          authorLogin: head.author?.login ?? null,
          ourFixedReplyId: ourFixedReply(node.replies.nodes, head.databaseId, request.botLogin),
        });
      }
    }
    if (!connection.pageInfo.hasNextPage) break;
    after = connection.pageInfo.endCursor;
  }
  return found;
}
