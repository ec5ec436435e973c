import type { Consensus, InlinePolicy } from "../consensus/index.js";
import { ChangedLineIndex, type DiffFile } from "../diff/index.js";
import type { RenderOptions } from "../render/index.js";
import { findingMarkerIn, renderCheckRunOutput } from "../render/index.js";
import type { StopReason } from "../run/index.js";
import type { PostedInline, StoredRound } from "../run/store/index.js";
import type { SuggestionOutcome } from "../suggestions/index.js";
import { consensusLinks } from "./consensus-links.js";
import { describeError } from "./describe-error.js";
import { findOwnReview } from "./find-own-review.js";
import type { GitHubClient } from "./github-client.js";
import type { KillPoint } from "./kill-points.js";
import { type CheckRunWait, checkAnnotations, completeCheckRun } from "./publish-check-run.js";
import { publishConsensus } from "./publish-consensus.js";
import {
  type InlineReviewRequest,
  planInlineReview,
  publishInlineReview,
} from "./publish-inline-review.js";
import { resolveFixedThreads } from "./resolve-fixed-threads.js";
import type { RoundDependencies } from "./round-dependencies.js";
import { savedFinding } from "./saved-finding.js";

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
  /** The round's clock, and its signal ending any wait on GitHub's secondary rate limit. */
  wait?: CheckRunWait;
  /** Each cluster's checked suggestion, by fingerprint: shown in its inline comment. */
  suggestions?: ReadonlyMap<string, SuggestionOutcome>;
  /** GitHub's web host (`githubWebUrl`): the consensus links to the code and inline comments there. */
  webUrl?: string;
}

/**
 * What publishing asks of the round running it: why it must stop before the next step (superseded,
 * cancelled, taken over, shut down; null to go on), and the test-only kill points.
 */
export interface PublishControl {
  beforeStep(): Promise<StopReason | null>;
  reached(point: KillPoint): void;
}

/** For a caller with nothing that stops it (a unit test): every step goes ahead. */
const UNSTOPPED: PublishControl = { beforeStep: async () => null, reached: () => undefined };

type PublishDeps = Pick<RoundDependencies, "store" | "botLogin" | "log">;

/** What the steps share: the round, the lines comments may go on, what earlier runs recorded. */
interface Publishing {
  octokit: GitHubClient;
  results: RoundResults;
  deps: PublishDeps;
  control: PublishControl;
  index: ChangedLineIndex;
  steps: Record<string, "intent" | "done">;
  consensusUrl: string;
  /** The consensus comment as this run wrote it (edited again to link inline comments). */
  consensusId: number | null;
  reviewId: number | null;
  /** What this run's own review put inline; unknown (null) for a review posted before a restart. */
  postedNow: readonly string[] | null;
  /** The inline comments the consensus comment as last written links to, by fingerprint. */
  linked: ReadonlySet<string>;
}

/**
 * Publishes a finished round: the consensus comment, then the inline review linking to it (only
 * the findings `publish` selects; every one is in the consensus comment), the threads of fixed
 * findings, then the check. Each step records its intent in the store before its GitHub call and
 * `done` once its result is stored, and the round's stop is asked before each: a round resumed
 * after a kill at any point finds what it already posted (sticky comments by marker, the review by
 * the round's id in its meta line) and posts nothing twice; a stopped round posts nothing more and
 * returns why.
 */
export async function publishRoundResults(
  octokit: GitHubClient,
  results: RoundResults,
  deps: PublishDeps,
  control: PublishControl = UNSTOPPED,
): Promise<StopReason | null> {
  const publishing: Publishing = {
    octokit,
    results,
    deps,
    control,
    index: ChangedLineIndex.fromFiles(results.files),
    steps: await deps.store.publishSteps(results.round.id),
    consensusUrl: "",
    consensusId: null,
    reviewId: results.round.artifacts.reviewId ?? null,
    postedNow: null,
    linked: new Set(),
  };
  for (const step of [postConsensus, postReview, recordInline, followFixedThreads, completeCheck]) {
    const stopped = await step(publishing);
    if (stopped !== null) return stopped;
  }
  return null;
}

/** Asks the round's stop, then records the step's intent: null to go on. */
async function begin(publishing: Publishing, step: PublishStep): Promise<StopReason | null> {
  const stopped = await publishing.control.beforeStep();
  if (stopped !== null) return stopped;
  await publishing.deps.store.markPublishStep(publishing.results.round.id, step, "intent");
  return null;
}

function done(publishing: Publishing, step: PublishStep): Promise<void> {
  return publishing.deps.store.markPublishStep(publishing.results.round.id, step, "done");
}

/** The sticky consensus comment, found by its marker: written again on resume, never twice. */
async function postConsensus(publishing: Publishing): Promise<StopReason | null> {
  const { results, deps, control } = publishing;
  const { round } = results;
  control.reached("before-consensus");
  const stopped = await begin(publishing, "consensus");
  if (stopped !== null) return stopped;
  const knownConsensusId = round.artifacts.consensusCommentId ?? results.knownConsensusId;
  const posted = await deps.store.postedInline(round.repo, round.pullNumber);
  const published = await writeConsensus(publishing, posted, knownConsensusId);
  publishing.consensusUrl = published.url;
  publishing.consensusId = published.id;
  await deps.store.setArtifacts(round.id, { consensusCommentId: published.id });
  await done(publishing, "consensus");
  control.reached("after-consensus");
  return null;
}

/**
 * The sticky consensus comment, linking each row to its code at the head SHA and to the inline
 * comment `posted` holds for it (this round's once its review is recorded, earlier rounds' before).
 */
async function writeConsensus(
  publishing: Publishing,
  posted: readonly PostedInline[],
  knownId: number | undefined,
) {
  const { results, deps } = publishing;
  const { round, consensus } = results;
  const links = results.webUrl === undefined ? null : consensusLinks(results.webUrl, round, posted);
  publishing.linked = new Set(Object.keys(links?.findingUrls ?? {}));
  return publishConsensus(publishing.octokit, consensus, {
    repo: round.repo,
    pullNumber: round.pullNumber,
    botLogin: deps.botLogin,
    ...(knownId === undefined ? {} : { knownId }),
    meta: {
      runId: round.id,
      headSha: round.headSha,
      round: round.number,
      fingerprints: consensus.clusters.map((cluster) => cluster.fingerprint),
    },
    ...(links === null ? {} : links),
    render: results.render,
    ...(results.wait === undefined ? {} : { wait: results.wait }),
  });
}

/**
 * The inline review is posted after the consensus comment (its body links to it), so the
 * comment learns its rows' inline comments only now: written again, once, when the review put a
 * finding of this round inline that it does not link to yet.
 */
async function linkInlineComments(publishing: Publishing): Promise<void> {
  const { results, deps } = publishing;
  const { round } = results;
  if (results.webUrl === undefined) return;
  const posted = await deps.store.postedInline(round.repo, round.pullNumber);
  const inRound = new Set(results.consensus.clusters.map((cluster) => cluster.fingerprint));
  const fresh = posted.some(
    (p) => inRound.has(p.fingerprint) && !publishing.linked.has(p.fingerprint),
  );
  if (!fresh) return;
  await writeConsensus(publishing, posted, publishing.consensusId ?? undefined);
}

/**
 * One review per round. Posted only if no earlier run of the round recorded it, and, when one
 * may have reached GitHub unrecorded (its intent without its result), only if GitHub does not
 * show it: then it is adopted.
 */
async function postReview(publishing: Publishing): Promise<StopReason | null> {
  const { results, deps, control, octokit } = publishing;
  const { round } = results;
  if (publishing.steps.review === "done" || publishing.reviewId !== null) return null;
  const request = await inlineReviewRequest(publishing);
  const plan = planInlineReview(request);
  control.reached("before-review");
  const stopped = await begin(publishing, "review");
  if (stopped !== null) return stopped;
  const adopted =
    publishing.steps.review === "intent"
      ? await findOwnReview(octokit, { ...request, runId: round.id, botLogin: deps.botLogin })
      : null;
  let listed = plan.listed;
  if (adopted !== null) {
    publishing.reviewId = adopted;
    deps.log.info(
      { round: round.id, reviewId: adopted },
      "adopted the review posted before a restart",
    );
  } else {
    const review = await publishInlineReview(octokit, request, plan);
    publishing.reviewId = review.reviewId;
    listed = review.unplaced;
    publishing.postedNow = review.posted;
    if (review.reviewId !== null) control.reached("after-review-posted");
  }
  if (publishing.reviewId !== null) {
    await deps.store.setArtifacts(round.id, { reviewId: publishing.reviewId });
    const fingerprints = listed.map((entry) => entry.cluster.fingerprint);
    await deps.store.saveListedUnplaced(round.repo, round.pullNumber, fingerprints);
  }
  await done(publishing, "review");
  if (publishing.reviewId !== null) control.reached("after-review-recorded");
  return null;
}

async function inlineReviewRequest(publishing: Publishing): Promise<InlineReviewRequest> {
  const { results, deps } = publishing;
  const { round } = results;
  const posted = await deps.store.postedInline(round.repo, round.pullNumber);
  return {
    repo: round.repo,
    pullNumber: round.pullNumber,
    headSha: round.headSha,
    clusters: results.consensus.clusters,
    modelCount: results.consensus.modelCount,
    index: publishing.index,
    alreadyPosted: new Set(posted.map((entry) => entry.fingerprint)),
    alreadyListed: new Set(await deps.store.listedUnplaced(round.repo, round.pullNumber)),
    policy: results.publish,
    consensusUrl: publishing.consensusUrl,
    render: results.render,
    runId: round.id,
    botLogin: deps.botLogin,
    ...(results.wait === undefined ? {} : { wait: results.wait }),
    ...(results.suggestions === undefined ? {} : { suggestions: results.suggestions }),
  };
}

/**
 * The review's inline comments, recorded by the fingerprints their markers name so later rounds
 * do not repeat them: read back from GitHub, so a round killed before recording them (or one that
 * adopted its review) records exactly what the review holds. It posts nothing, so a round stopped
 * meanwhile still records what its review put on the PR.
 */
async function recordInline(publishing: Publishing): Promise<StopReason | null> {
  const { results, deps, control, reviewId } = publishing;
  if (reviewId === null || publishing.steps.inline === "done") return null;
  const { round } = results;
  await deps.store.markPublishStep(round.id, "inline", "intent");
  if (publishing.postedNow === null || publishing.postedNow.length > 0) {
    const comments = await publishing.octokit.paginate(
      publishing.octokit.rest.pulls.listCommentsForReview,
      { ...round.repo, pull_number: round.pullNumber, review_id: reviewId, per_page: 100 },
    );
    for (const comment of comments) {
      const fingerprint = findingMarkerIn(comment.body);
      if (fingerprint !== null) {
        await deps.store.savePostedInline(round.repo, round.pullNumber, fingerprint, comment.id);
      }
    }
  }
  await linkInlineComments(publishing);
  await done(publishing, "inline");
  control.reached("after-inline-recorded");
  return null;
}

/**
 * Threads follow the code: our inline comments on findings this round found fixed get a "Fixed in
 * <sha>." reply (once) and are resolved. Outside the one-review guard, so a resumed round finishes
 * what it began; idempotent, and never fails the round. Then the round's findings are saved: the
 * next round compares against them (and carries what nobody reports again).
 */
async function followFixedThreads(publishing: Publishing): Promise<StopReason | null> {
  const { results, deps } = publishing;
  const { round, consensus } = results;
  const fixed = consensus.comparison?.fixed ?? [];
  if (fixed.length > 0) {
    const stopped = await publishing.control.beforeStep();
    if (stopped !== null) return stopped;
    const threads = await resolveFixedThreads(
      publishing.octokit,
      {
        repo: round.repo,
        pullNumber: round.pullNumber,
        headSha: round.headSha,
        botLogin: deps.botLogin,
        fixed: fixed.map((finding) => finding.fingerprint),
        posted: await deps.store.postedInline(round.repo, round.pullNumber),
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
  await deps.store.saveFingerprints(round.id, consensus.clusters.map(savedFinding));
  return null;
}

/** Completing the check is an edit: done again on resume, never a second check. */
async function completeCheck(publishing: Publishing): Promise<StopReason | null> {
  const { results, control } = publishing;
  control.reached("before-check");
  const stopped = await begin(publishing, "check");
  if (stopped !== null) return stopped;
  await completeCheckRun(
    publishing.octokit,
    results.round.repo,
    results.checkRunId,
    "neutral",
    renderCheckRunOutput(results.consensus, results.render),
    checkAnnotations(results.consensus.clusters, publishing.index),
    results.wait,
  );
  await done(publishing, "check");
  control.reached("after-check");
  return null;
}
