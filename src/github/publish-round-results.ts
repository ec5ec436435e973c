import type { Consensus, InlinePolicy } from "../consensus/index.js";
import { ChangedLineIndex, type DiffFile } from "../diff/index.js";
import type { RenderOptions } from "../render/index.js";
import { findingMarkerIn, renderCheckRunOutput } from "../render/index.js";
import type { StoredRound } from "../run/store/index.js";
import { describeError } from "./describe-error.js";
import type { GitHubClient } from "./github-client.js";
import { checkAnnotations, completeCheckRun } from "./publish-check-run.js";
import { publishConsensus } from "./publish-consensus.js";
import { publishInlineReview } from "./publish-inline-review.js";
import { resolveFixedThreads } from "./resolve-fixed-threads.js";
import type { RoundDependencies } from "./run-pull-request-round.js";

export interface RoundResults {
  round: StoredRound;
  consensus: Consensus;
  /** The files reviewers were given: inline comments and annotations go only on their changed lines. */
  files: readonly DiffFile[];
  render: RenderOptions;
  checkRunId: number;
  /** Which findings go inline: the round's plan's `publish`. */
  publish: InlinePolicy;
}

/**
 * Publishes a finished round: the consensus comment, then the inline review
 * linking to it (only the findings `publish` selects; every one is in the
 * consensus comment), then the check. Each step stores what it posted, so a round
 * resumed after a crash while publishing edits rather than posts again.
 */
export async function publishRoundResults(
  octokit: GitHubClient,
  results: RoundResults,
  deps: Pick<RoundDependencies, "store" | "botLogin" | "log">,
): Promise<void> {
  const { round, consensus, render } = results;
  const repo = round.repo;
  const index = ChangedLineIndex.fromFiles(results.files);
  const published = await publishConsensus(octokit, consensus, {
    repo,
    pullNumber: round.pullNumber,
    botLogin: deps.botLogin,
    ...(round.artifacts.consensusCommentId === undefined
      ? {}
      : { knownId: round.artifacts.consensusCommentId }),
    meta: {
      runId: round.id,
      headSha: round.headSha,
      round: round.number,
      fingerprints: consensus.clusters.map((cluster) => cluster.fingerprint),
    },
    render,
  });
  await deps.store.setArtifacts(round.id, { consensusCommentId: published.id });

  // One review per round: a round resumed after its review went out (a crash while
  // publishing) does not post it again.
  if (round.artifacts.reviewId === undefined) {
    const alreadyPosted = new Set(
      (await deps.store.postedInline(repo, round.pullNumber)).map((posted) => posted.fingerprint),
    );
    const alreadyListed = new Set(await deps.store.listedUnplaced(repo, round.pullNumber));
    const review = await publishInlineReview(octokit, {
      repo,
      pullNumber: round.pullNumber,
      headSha: round.headSha,
      clusters: consensus.clusters,
      index,
      alreadyPosted,
      alreadyListed,
      policy: results.publish,
      consensusUrl: published.url,
      render,
    });
    if (review.reviewId !== null) {
      await deps.store.setArtifacts(round.id, { reviewId: review.reviewId });
      await deps.store.saveListedUnplaced(
        repo,
        round.pullNumber,
        review.unplaced.map((entry) => entry.cluster.fingerprint),
      );
      await recordPostedComments(octokit, round, review.reviewId, new Set(review.posted), deps);
    }
  }
  // Threads follow the code: our inline comments on findings this round found fixed get a
  // "Fixed in <sha>." reply (once) and are resolved. Outside the one-review guard, so a resumed
  // round finishes what it began; idempotent, and never fails the round.
  const fixed = consensus.comparison?.fixed ?? [];
  if (fixed.length > 0) {
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
  await completeCheckRun(
    octokit,
    repo,
    results.checkRunId,
    "neutral",
    renderCheckRunOutput(consensus, render),
    checkAnnotations(consensus.clusters, index),
  );
}

/** Stores each inline comment's id by the fingerprint its marker names: later rounds do not repeat it. */
async function recordPostedComments(
  octokit: GitHubClient,
  round: StoredRound,
  reviewId: number,
  posted: ReadonlySet<string>,
  deps: Pick<RoundDependencies, "store">,
): Promise<void> {
  if (posted.size === 0) return;
  const comments = await octokit.paginate(octokit.rest.pulls.listCommentsForReview, {
    ...round.repo,
    pull_number: round.pullNumber,
    review_id: reviewId,
    per_page: 100,
  });
  for (const comment of comments) {
    const fingerprint = findingMarkerIn(comment.body);
    if (fingerprint !== null && posted.has(fingerprint)) {
      await deps.store.savePostedInline(round.repo, round.pullNumber, fingerprint, comment.id);
    }
  }
}
