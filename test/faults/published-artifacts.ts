import { MARKERS } from "../../src/render/markers.js";
import type {
  CheckRunRecord,
  FakeGitHub,
  IssueCommentRecord,
  PullRequestSnapshot,
  ReviewRecord,
} from "../fakes/fake-github/index.js";

const BOT = "gadfly[bot]";

/** What the app has published on one pull request so far, as the fake GitHub holds it. */
export interface PublishedArtifacts {
  boards: IssueCommentRecord[];
  consensus: IssueCommentRecord[];
  reviews: ReviewRecord[];
  /** Check runs on each head SHA asked for. */
  checks: CheckRunRecord[];
  /** Comments the app's POSTs created (answered 201), by marker. */
  createdBoards: number;
  createdConsensus: number;
  /** Every POST of a comment and of a review, faulted ones included. */
  commentPosts: number;
  reviewPosts: number;
}

/** Reads the bot's comments, reviews, checks and the POSTs behind them for one PR. */
export function publishedArtifacts(
  github: FakeGitHub,
  pr: PullRequestSnapshot,
  headShas: readonly string[] = [pr.headSha],
): PublishedArtifacts {
  const own = (marker: string) =>
    github
      .comments(pr)
      .filter((comment) => comment.user.login === BOT && comment.body.startsWith(marker));
  const repoPath = `/repos/${pr.owner}/${pr.repo}`;
  const commentPosts = github.requests({
    method: "POST",
    path: `${repoPath}/issues/${pr.number}/comments`,
  });
  const created = (marker: string) =>
    commentPosts.filter(
      (request) =>
        request.status === 201 &&
        ((request.body as { body?: unknown } | undefined)?.body as string | undefined)?.startsWith(
          marker,
        ) === true,
    ).length;
  return {
    boards: own(MARKERS.statusBoard),
    consensus: own(MARKERS.consensus),
    reviews: github.reviews(pr).filter((review) => review.user.login === BOT),
    checks: headShas.flatMap((sha) => github.checkRuns(sha)),
    createdBoards: created(MARKERS.statusBoard),
    createdConsensus: created(MARKERS.consensus),
    commentPosts: commentPosts.length,
    reviewPosts: github.requests({ method: "POST", path: `${repoPath}/pulls/${pr.number}/reviews` })
      .length,
  };
}
