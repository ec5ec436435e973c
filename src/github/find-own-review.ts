import { MARKERS, parseMetaComment, startsWithMarker } from "../render/index.js";
import type { GitHubClient, RepoRef } from "./github-client.js";

export interface OwnReviewQuery {
  repo: RepoRef;
  pullNumber: number;
  headSha: string;
  /** The round that would have posted it: its id rides in the review body's `gadfly-meta` line. */
  runId: string;
  botLogin: string;
}

/**
 * The review a round already posted, or null: ours by login, on the same head SHA, opening
 * with the inline-review marker and naming the round in its meta line. A round killed after
 * GitHub accepted its review, but before the review's id was stored, adopts it instead of
 * posting a second one.
 */
export async function findOwnReview(
  octokit: GitHubClient,
  query: OwnReviewQuery,
): Promise<number | null> {
  const reviews = await octokit.paginate(octokit.rest.pulls.listReviews, {
    ...query.repo,
    pull_number: query.pullNumber,
    per_page: 100,
  });
  const login = query.botLogin.toLowerCase();
  for (const review of reviews) {
    if (review.user?.login.toLowerCase() !== login || review.commit_id !== query.headSha) continue;
    const body = review.body ?? "";
    if (!startsWithMarker(body, MARKERS.inlineReview)) continue;
    const meta = parseMetaComment(body);
    if (
      typeof meta === "object" &&
      meta !== null &&
      "runId" in meta &&
      meta.runId === query.runId
    ) {
      return review.id;
    }
  }
  return null;
}
