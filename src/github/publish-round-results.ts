import type { Consensus, InlinePolicy } from "../consensus/index.js";
import { ChangedLineIndex, type DiffFile } from "../diff/index.js";
import type { RenderOptions } from "../render/index.js";
import { findingMarkerIn, renderCheckRunOutput } from "../render/index.js";
import type { StoredRound } from "../run/store/index.js";
import { describeError } from "./describe-error.js";
import { findOwnReview } from "./find-own-review.js";
import type { GitHubClient } from "./github-client.js";
import type { KillPoint } from "./kill-points.js";
import { checkAnnotations, completeCheckRun } from "./publish-check-run.js";
import { publishConsensus } from "./publish-consensus.js";
import {
  type InlineReviewRequest,
  planInlineReview,
  publishInlineReview,
} from "./publish-inline-review.js";
import { resolveFixedThreads } from "./resolve-fixed-threads.js";
import type { RoundDependencies } from "./run-pull-request-round.js";

/** The steps a round records in the store (`RunStore.markPublishStep`), in order. */
type PublishStep = "consensus" | "review" | "inline" | "check";

export interface RoundResults {
  round: StoredRound;
  consensus: Consensus;
  /** The files reviewers were given: inline comments and annotations go only on their changed lines. */
  files: readonly DiffFile[];
  render: RenderOptions;
  checkRunId: number;
  /** Which findings go inline: the round's plan's `publish`. */
  publish: InlinePolicy;
  /**
   * The sticky consensus comment as an earlier round of the PR recorded it: edited by id, so
   * GitHub need not be asked to list the PR's comments to find it (found anew if it is gone).
   */
  knownConsensusId?: number;
}

/**
 * What publishing asks of the round running it: whether it must stop before the next step
 * (throws PublishingStopped when superseded, cancelled, taken over or shut down), and the
 * test-only kill points.
 */
export interface PublishControl {
  beforeStep(): Promise<void>;
  reached(point: KillPoint): void;
}

/** For a caller with nothing that stops it (a unit test): every step goes ahead. */
const UNSTOPPED: PublishControl = { beforeStep: async () => undefined, reached: () => undefined };

/**
 * Publishes a finished round: the consensus comment, then the inline review
 * linking to it (only the findings `publish` selects; every one is in the
 * consensus comment), then the check. Each step records its intent in the store
 * before its GitHub call and `done` once its result is stored, and the round's stop
 * is asked before each: a round resumed after a kill at any point finds what it
 * already posted (sticky comments by marker, the review by the round's id in its
 * meta line) and posts nothing twice; a superseded round stops before the next step.
 */
export async function publishRoundResults(
  octokit: GitHubClient,
  results: RoundResults,
  deps: Pick<RoundDependencies, "store" | "botLogin" | "log">,
  control: PublishControl = UNSTOPPED,
): Promise<void> {
  const { round, consensus, render } = results;
  const repo = round.repo;
  const { store } = deps;
  const index = ChangedLineIndex.fromFiles(results.files);
  const steps = await store.publishSteps(round.id);
  const begin = async (step: PublishStep) => {
    await control.beforeStep();
    await store.markPublishStep(round.id, step, "intent");
  };
  const done = (step: PublishStep) => store.markPublishStep(round.id, step, "done");

  // The sticky consensus comment is found by its marker: written again on resume, never twice.
  control.reached("before-consensus");
  await begin("consensus");
  const knownConsensusId = round.artifacts.consensusCommentId ?? results.knownConsensusId;
  const published = await publishConsensus(octokit, consensus, {
    repo,
    pullNumber: round.pullNumber,
    botLogin: deps.botLogin,
    ...(knownConsensusId === undefined ? {} : { knownId: knownConsensusId }),
    meta: {
      runId: round.id,
      headSha: round.headSha,
      round: round.number,
      fingerprints: consensus.clusters.map((cluster) => cluster.fingerprint),
    },
    render,
  });
  await store.setArtifacts(round.id, { consensusCommentId: published.id });
  await done("consensus");
  control.reached("after-consensus");

  // One review per round. Posted only if no earlier run of the round recorded it, and, when
  // one may have reached GitHub unrecorded (its intent without its result), only if GitHub
  // does not show it: then it is adopted.
  let reviewId = round.artifacts.reviewId ?? null;
  /** What this run's own review put inline; unknown (null) for a review posted before a restart. */
  let postedNow: readonly string[] | null = null;
  if (steps.review !== "done" && reviewId === null) {
    const request: InlineReviewRequest = {
      repo,
      pullNumber: round.pullNumber,
      headSha: round.headSha,
      clusters: consensus.clusters,
      index,
      alreadyPosted: new Set(
        (await store.postedInline(repo, round.pullNumber)).map((posted) => posted.fingerprint),
      ),
      alreadyListed: new Set(await store.listedUnplaced(repo, round.pullNumber)),
      policy: results.publish,
      consensusUrl: published.url,
      render,
      runId: round.id,
    };
    const plan = planInlineReview(request);
    control.reached("before-review");
    await begin("review");
    const adopted =
      steps.review === "intent"
        ? await findOwnReview(octokit, {
            repo,
            pullNumber: round.pullNumber,
            headSha: round.headSha,
            runId: round.id,
            botLogin: deps.botLogin,
          })
        : null;
    let listed = plan.listed;
    if (adopted !== null) {
      reviewId = adopted;
      deps.log.info({ round: round.id, reviewId }, "adopted the review posted before a restart");
    } else {
      const review = await publishInlineReview(octokit, request, plan);
      reviewId = review.reviewId;
      listed = review.unplaced;
      postedNow = review.posted;
      if (reviewId !== null) control.reached("after-review-posted");
    }
    if (reviewId !== null) {
      await store.setArtifacts(round.id, { reviewId });
      await store.saveListedUnplaced(
        repo,
        round.pullNumber,
        listed.map((entry) => entry.cluster.fingerprint),
      );
    }
    await done("review");
    if (reviewId !== null) control.reached("after-review-recorded");
  }
  // The review's inline comments, recorded by the fingerprints their markers name so later
  // rounds do not repeat them: read back from GitHub, so a round killed before recording
  // them (or one that adopted its review) records exactly what the review holds. It posts
  // nothing, so a round superseded meanwhile still records what its review put on the PR.
  if (reviewId !== null && steps.inline !== "done") {
    await store.markPublishStep(round.id, "inline", "intent");
    if (postedNow === null || postedNow.length > 0) {
      await recordPostedComments(octokit, round, reviewId, deps);
    }
    await done("inline");
    control.reached("after-inline-recorded");
  }
  // Threads follow the code: our inline comments on findings this round found fixed get a
  // "Fixed in <sha>." reply (once) and are resolved. Outside the one-review guard, so a resumed
  // round finishes what it began; idempotent, and never fails the round.
  const fixed = consensus.comparison?.fixed ?? [];
  if (fixed.length > 0) {
    await control.beforeStep();
    const threads = await resolveFixedThreads(
      octokit,
      {
        repo,
        pullNumber: round.pullNumber,
        headSha: round.headSha,
        botLogin: deps.botLogin,
        fixed: fixed.map((finding) => finding.fingerprint),
        posted: await deps.store.postedInline(repo, round.pullNumber),
      },
      { store: deps.store },
    );
    for (const thread of threads.filter((entry) => entry.outcome === "failed")) {
      deps.log.warn(
        {
          round: round.id,
          fingerprint: thread.fingerprint,
          commentId: thread.commentId,
          err: describeError(thread.error),
        },
        "could not resolve the thread of a fixed finding",
      );
    }
  }
  await deps.store.saveFingerprints(
    round.id,
    // The detail lets a later incremental round carry a finding nobody reports again.
    consensus.clusters.map((cluster) => ({
      fingerprint: cluster.fingerprint,
      title: cluster.representative.title,
      file: cluster.representative.file,
      line: cluster.representative.line,
      severity: cluster.severity,
      detail: {
        endLine: cluster.representative.endLine,
        models: cluster.models,
        ...(cluster.confirmedBy === undefined ? {} : { confirmedBy: cluster.confirmedBy }),
        lens: cluster.representative.lens,
        confidence: cluster.representative.confidence,
        body: cluster.representative.body,
        ...(cluster.carried === undefined ? {} : { since: cluster.carried.since }),
      },
    })),
  );
  // Completing the check is an edit: done again on resume, never a second check.
  control.reached("before-check");
  await begin("check");
  await completeCheckRun(
    octokit,
    repo,
    results.checkRunId,
    "neutral",
    renderCheckRunOutput(consensus, render),
    checkAnnotations(consensus.clusters, index),
  );
  await done("check");
  control.reached("after-check");
}

/** Stores each inline comment's id by the fingerprint its marker names: later rounds do not repeat it. */
async function recordPostedComments(
  octokit: GitHubClient,
  round: StoredRound,
  reviewId: number,
  deps: Pick<RoundDependencies, "store">,
): Promise<void> {
  const comments = await octokit.paginate(octokit.rest.pulls.listCommentsForReview, {
    ...round.repo,
    pull_number: round.pullNumber,
    review_id: reviewId,
    per_page: 100,
  });
  for (const comment of comments) {
    const fingerprint = findingMarkerIn(comment.body);
    if (fingerprint !== null) {
      await deps.store.savePostedInline(round.repo, round.pullNumber, fingerprint, comment.id);
    }
  }
}
