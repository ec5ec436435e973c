import {
  type Cluster,
  type InlinePolicy,
  type InlineSelection,
  selectInline,
} from "../consensus/index.js";
import type { ChangedLineIndex } from "../diff/index.js";
import type { RenderOptions } from "../render/index.js";
import {
  renderInlineComment,
  renderInlineReviewBody,
  type UnplacedFinding,
} from "../render/index.js";
import type { SuggestionOutcome } from "../suggestions/index.js";
import { createOnce, ONE_SEND } from "./create-once.js";
import { findOwnReview } from "./find-own-review.js";
import type { GitHubClient, RepoRef } from "./github-client.js";
import { type RateLimitWait, retrySecondaryRateLimit } from "./retry-secondary-rate-limit.js";
import { unplacedToList } from "./unplaced-to-list.js";

/** GitHub shows long reviews poorly and each comment is a notification: cap them. */
export const MAX_INLINE_COMMENTS = 30;

export interface InlineReviewRequest {
  repo: RepoRef;
  pullNumber: number;
  headSha: string;
  /** Ranked clusters of the round. */
  clusters: readonly Cluster[];
  /** Models that completed a lens this round (the consensus's): the N of "k/N" agreement. */
  modelCount?: number;
  index: ChangedLineIndex;
  /** Fingerprints already posted inline in an earlier round and still open: not posted again. */
  alreadyPosted: ReadonlySet<string>;
  /** Fingerprints an earlier review already listed as not placeable inline: not listed again. */
  alreadyListed?: ReadonlySet<string>;
  /** Which of the other clusters go inline (selectInline); the rest are in the consensus comment only. */
  policy: InlinePolicy;
  consensusUrl?: string;
  render?: RenderOptions;
  /** The round posting it, named in the body's hidden meta line (how a resumed round finds it). */
  runId?: string;
  /** Our bot's login: with `runId`, how an unconfirmed post is found instead of posted twice. */
  botLogin?: string;
  /** How writes wait out GitHub's secondary rate limit (the round's clock and signal). */
  wait?: RateLimitWait;
  /**
   * Each cluster's checked suggestion, by fingerprint (src/suggestions): one that passed puts
   * the comment on exactly the lines it replaces, since GitHub applies a suggestion to the
   * commented lines; one that failed is shown as a diff with its reason.
   */
  suggestions?: ReadonlyMap<string, SuggestionOutcome>;
}

export interface InlineReviewResult {
  reviewId: number | null;
  /** Fingerprints posted inline by this review. */
  posted: string[];
  unplaced: UnplacedFinding[];
  /** True when GitHub refused the comments and the review went out as a body-only fallback. */
  degraded: boolean;
  /** Clusters the policy kept out of the review, by reason (already posted ones not counted). */
  heldBack: InlineSelection["counts"];
}

export interface PlannedComment {
  fingerprint: string;
  path: string;
  line: number;
  start_line?: number;
  side: "RIGHT";
  start_side?: "RIGHT";
  body: string;
}

/** What a round's review would hold, computed before anything is posted. */
export interface InlineReviewPlan {
  planned: PlannedComment[];
  /** The findings the body lists as not placeable inline (not listed before). */
  listed: UnplacedFinding[];
  heldBack: InlineSelection["counts"];
}

/**
 * Plans the round's review: one comment per cluster the policy selects (selectInline; the
 * rest are held back, counted in one line of the body) whose lines lie inside one hunk
 * (validated against the diff first: one invalid comment fails the whole review); at most
 * MAX_INLINE_COMMENTS. Pure: a round resumed after a kill plans the same review again, to
 * record what the review it adopts listed.
 */
export function planInlineReview(request: InlineReviewRequest): InlineReviewPlan {
  const planned: PlannedComment[] = [];
  const unplaced: UnplacedFinding[] = [];
  const placements = new Map<Cluster, ReturnType<ChangedLineIndex["placeComment"]>>();
  const place = (cluster: Cluster) => {
    if (!placements.has(cluster)) {
      const finding = cluster.representative;
      const suggestion = request.suggestions?.get(cluster.fingerprint);
      // A passed suggestion's lines lie in one hunk (checked): the comment goes on them exactly.
      const range =
        suggestion?.kind === "passed"
          ? { start: suggestion.line, end: suggestion.endLine }
          : { start: finding.line, end: finding.endLine };
      placements.set(cluster, request.index.placeComment(finding.file, range));
    }
    return placements.get(cluster) ?? null;
  };
  const fresh = request.clusters.filter(
    (cluster) => !request.alreadyPosted.has(cluster.fingerprint),
  );
  const selection = selectInline(fresh, request.policy, {
    placeable: (cluster) => place(cluster) !== null,
  });
  for (const cluster of selection.selected) {
    const finding = cluster.representative;
    const placement = place(cluster);
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
      body: renderInlineComment(
        cluster,
        request.render,
        request.suggestions?.get(cluster.fingerprint),
        request.modelCount,
      ),
    });
  }
  return {
    planned,
    listed: unplacedToList(unplaced, request.alreadyListed ?? new Set()),
    heldBack: selection.counts,
  };
}

/**
 * Posts the planned review, one COMMENT review on the head SHA (planInlineReview says what it
 * holds). If GitHub still refuses (422), the review is posted again with no inline comments
 * and every finding listed in its body.
 */
export async function publishInlineReview(
  octokit: GitHubClient,
  request: InlineReviewRequest,
  plan: InlineReviewPlan = planInlineReview(request),
): Promise<InlineReviewResult> {
  const { planned, heldBack } = plan;
  const listed = plan.listed;
  // Nothing to post and nothing to list: no review. One that only said what was held back
  // would repeat the consensus comment.
  if (planned.length === 0 && listed.length === 0) {
    return { reviewId: null, posted: [], unplaced: listed, degraded: false, heldBack };
  }
  const link = {
    ...(request.consensusUrl === undefined ? {} : { consensusUrl: request.consensusUrl }),
    heldBack: { counts: heldBack, policy: request.policy },
    ...(request.runId === undefined ? {} : { runId: request.runId }),
  };
  try {
    const reviewId = await createReview(
      octokit,
      request,
      renderInlineReviewBody(
        { inlineCount: planned.length, unplaced: listed, ...link },
        request.render,
      ),
      planned,
    );
    return {
      reviewId,
      posted: planned.map((comment) => comment.fingerprint),
      unplaced: listed,
      degraded: false,
      heldBack,
    };
  } catch (error) {
    if ((error as { status?: number }).status !== 422 || planned.length === 0) throw error;
    const all: UnplacedFinding[] = unplacedToList(
      [
        ...planned.flatMap((comment) => {
          const cluster = request.clusters.find(
            (candidate) => candidate.fingerprint === comment.fingerprint,
          );
          return cluster === undefined ? [] : [{ cluster, reason: "outside-diff" as const }];
        }),
        ...plan.listed,
      ],
      request.alreadyListed ?? new Set(),
    );
    const reviewId = await createReview(
      octokit,
      request,
      renderInlineReviewBody({ inlineCount: 0, unplaced: all, ...link }, request.render),
      [],
    );
    return { reviewId, posted: [], unplaced: all, degraded: true, heldBack };
  }
}

/**
 * Posts one review. When GitHub does not confirm it (a 5xx after creating it is common), the
 * round's review is looked for by the round's id in its meta line and adopted; without a round
 * id there is nothing to look for, and it is not sent again.
 */
async function createReview(
  octokit: GitHubClient,
  request: InlineReviewRequest,
  body: string,
  comments: PlannedComment[],
): Promise<number> {
  const { runId, botLogin } = request;
  return createOnce(
    async () => {
      const { data } = await retrySecondaryRateLimit(
        () =>
          octokit.rest.pulls.createReview({
            ...request.repo,
            pull_number: request.pullNumber,
            commit_id: request.headSha,
            event: "COMMENT",
            body,
            comments: comments.map(({ fingerprint: _fingerprint, ...comment }) => comment),
          }),
        request.wait,
      );
      return data.id;
    },
    async () =>
      runId === undefined || botLogin === undefined
        ? null
        : findOwnReview(octokit, { ...request, runId, botLogin }),
    runId === undefined || botLogin === undefined ? ONE_SEND : undefined,
  );
}
