import type { FakeState } from "./fake-state.js";
import type { ReviewCommentRecord, ReviewRecord, UserRecord } from "./types.js";

/** A review thread as GitHub derives it: a top-level review comment and the replies that joined it. */
export interface ReviewThread {
  /** The GraphQL node id (`PRRT_…`), what `resolveReviewThread` takes. */
  id: string;
  owner: string;
  repo: string;
  pullNumber: number;
  /** The top-level comment first, then the replies, oldest first. */
  comments: { review: ReviewRecord; comment: ReviewCommentRecord }[];
  resolvedBy: UserRecord | null;
}

const threadPrefix = "PRRT_";

export function threadNodeId(rootCommentId: number): string {
  return `${threadPrefix}${Buffer.from(`thread:${rootCommentId}`).toString("base64url")}`;
}

/** The top-level comment id a thread node id names, or undefined for any other id. */
export function rootCommentIdOf(nodeId: string): number | undefined {
  if (!nodeId.startsWith(threadPrefix)) return undefined;
  const decoded = Buffer.from(nodeId.slice(threadPrefix.length), "base64url").toString("utf8");
  const match = /^thread:(\d+)$/.exec(decoded);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

/** The pull request's threads, in the order their top-level comments were made (pending reviews left out). */
export function reviewThreadsOf(
  state: FakeState,
  owner: string,
  repo: string,
  pullNumber: number,
): ReviewThread[] {
  const pairs = [...state.reviews.values()]
    .filter(
      (review) =>
        review.owner.toLowerCase() === owner.toLowerCase() &&
        review.repo.toLowerCase() === repo.toLowerCase() &&
        review.pullNumber === pullNumber &&
        review.state !== "PENDING",
    )
    .flatMap((review) => review.comments.map((comment) => ({ review, comment })))
    .sort((left, right) => left.comment.id - right.comment.id);
  const threads = new Map<number, ReviewThread>();
  for (const pair of pairs) {
    const rootId = pair.comment.inReplyToId ?? pair.comment.id;
    let thread = threads.get(rootId);
    if (thread === undefined) {
      thread = {
        id: threadNodeId(rootId),
        owner: pair.review.owner,
        repo: pair.review.repo,
        pullNumber,
        comments: [],
        resolvedBy: state.resolvedThreads.get(rootId) ?? null,
      };
      threads.set(rootId, thread);
    }
    thread.comments.push(pair);
  }
  return [...threads.values()];
}

/** The review comment with this id and its review, wherever it is. */
export function findReviewComment(
  state: FakeState,
  commentId: number,
): { review: ReviewRecord; comment: ReviewCommentRecord } | undefined {
  for (const review of state.reviews.values()) {
    const comment = review.comments.find((candidate) => candidate.id === commentId);
    if (comment !== undefined) return { review, comment };
  }
  return undefined;
}
