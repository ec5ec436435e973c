import type { Cluster } from "../consensus/index.js";
import type { ChangedLineIndex } from "../diff/index.js";
import type { RenderOptions } from "../render/index.js";
import {
  renderInlineComment,
  renderInlineReviewBody,
  type UnplacedFinding,
} from "../render/index.js";
import type { GitHubClient, RepoRef } from "./github-client.js";
import { retrySecondaryRateLimit } from "./retry-secondary-rate-limit.js";

/** GitHub shows long reviews poorly and each comment is a notification: cap them. */
export const MAX_INLINE_COMMENTS = 30;

export interface InlineReviewRequest {
  repo: RepoRef;
  pullNumber: number;
  headSha: string;
  /** Ranked clusters of the round. */
  clusters: readonly Cluster[];
  index: ChangedLineIndex;
  /** Fingerprints already posted inline in an earlier round and still open: not posted again. */
  alreadyPosted: ReadonlySet<string>;
  consensusUrl?: string;
  render?: RenderOptions;
}

export interface InlineReviewResult {
  reviewId: number | null;
  /** Fingerprints posted inline by this review. */
  posted: string[];
  unplaced: UnplacedFinding[];
  /** True when GitHub refused the comments and the review went out as a body-only fallback. */
  degraded: boolean;
}

interface PlannedComment {
  fingerprint: string;
  path: string;
  line: number;
  start_line?: number;
  side: "RIGHT";
  start_side?: "RIGHT";
  body: string;
}

/**
 * Posts one COMMENT review on the head SHA, with one comment per cluster whose
 * lines lie inside one hunk (validated against the diff first: one invalid
 * comment fails the whole review). If GitHub still refuses (422), the review
 * is posted again with no inline comments and every finding listed in its body.
 */
export async function publishInlineReview(
  octokit: GitHubClient,
  request: InlineReviewRequest,
): Promise<InlineReviewResult> {
  const planned: PlannedComment[] = [];
  const unplaced: UnplacedFinding[] = [];
  for (const cluster of request.clusters) {
    if (request.alreadyPosted.has(cluster.fingerprint)) continue;
    const finding = cluster.representative;
    const placement = request.index.placeComment(finding.file, {
      start: finding.line,
      end: finding.endLine,
    });
    if (placement === null) {
      unplaced.push({ cluster, reason: "outside-diff" });
      continue;
    }
    if (planned.length >= MAX_INLINE_COMMENTS) {
      unplaced.push({ cluster, reason: "over-limit" });
      continue;
    }
    planned.push({
      fingerprint: cluster.fingerprint,
      path: finding.file,
      line: placement.line,
      side: "RIGHT",
      ...(placement.startLine === undefined
        ? {}
        : { start_line: placement.startLine, start_side: "RIGHT" as const }),
      body: renderInlineComment(cluster, request.render),
    });
  }
  if (planned.length === 0 && unplaced.length === 0) {
    return { reviewId: null, posted: [], unplaced, degraded: false };
  }
  const link = request.consensusUrl === undefined ? {} : { consensusUrl: request.consensusUrl };
  try {
    const reviewId = await createReview(
      octokit,
      request,
      renderInlineReviewBody({ inlineCount: planned.length, unplaced, ...link }, request.render),
      planned,
    );
    return {
      reviewId,
      posted: planned.map((comment) => comment.fingerprint),
      unplaced,
      degraded: false,
    };
  } catch (error) {
    if ((error as { status?: number }).status !== 422 || planned.length === 0) throw error;
    const all: UnplacedFinding[] = [
      ...planned.flatMap((comment) => {
        const cluster = request.clusters.find(
          (candidate) => candidate.fingerprint === comment.fingerprint,
        );
        return cluster === undefined ? [] : [{ cluster, reason: "outside-diff" as const }];
      }),
      ...unplaced,
    ];
    const reviewId = await createReview(
      octokit,
      request,
      renderInlineReviewBody({ inlineCount: 0, unplaced: all, ...link }, request.render),
      [],
    );
    return { reviewId, posted: [], unplaced: all, degraded: true };
  }
}

async function createReview(
  octokit: GitHubClient,
  request: InlineReviewRequest,
  body: string,
  comments: PlannedComment[],
): Promise<number> {
  const { data } = await retrySecondaryRateLimit(() =>
    octokit.rest.pulls.createReview({
      ...request.repo,
      pull_number: request.pullNumber,
      commit_id: request.headSha,
      event: "COMMENT",
      body,
      comments: comments.map(({ fingerprint: _fingerprint, ...comment }) => comment),
    }),
  );
  return data.id;
}
