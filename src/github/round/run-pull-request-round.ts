import { rm } from "node:fs/promises";
import { ChangedLineIndex } from "../../diff/index.js";
import type { ReviewChangeResult } from "../../run/index.js";
import type { PreviousRound } from "../../run/store/index.js";
import { checkSuggestions } from "../../suggestions/index.js";
import { applyFeedback } from "../apply-feedback.js";
import { githubWebUrl } from "../consensus-links.js";
import type { GitHubClient } from "../github-client.js";
import { publishRoundResults } from "../publish-round-results.js";
import type { RoundDependencies } from "../round-dependencies.js";
import { endStopped, failRound } from "./end-round.js";
import { openRound } from "./open-round.js";
import { reviewPullRequest } from "./review-pull-request.js";
import { openRoundRun, type PreparedRound, type RoundRun } from "./round-run.js";
import { withCodeContexts } from "./with-code-contexts.js";

/**
 * Runs one claimed round end to end, and never throws. Its steps, in order:
 *
 * 1. stopped before it began (superseded while its job loaded the PR): end it;
 * 2. the check `in_progress` and the board (`openRound`);
 * 3. the snapshot, every model through every lens, the consensus (`reviewPullRequest`);
 * 4. stopped while reviewing: end it (or hand it over);
 * 5. publish — consensus comment, inline review, fixed threads, check — asking before each step
 *    whether it must stop (`publishRoundResults`);
 * 6. the board's last edit and the round completed in the store.
 *
 * A failure anywhere ends the round failed, its board and check saying the public reason, after
 * everything left of it was stopped (`failRound`). A shutdown or a lost lease writes nothing that
 * says the round ended: whoever takes it next resumes it.
 */
export async function runPullRequestRound(
  octokit: GitHubClient,
  prepared: PreparedRound,
  deps: RoundDependencies,
): Promise<void> {
  const run = openRoundRun(octokit, prepared, deps);
  try {
    const early = await run.lease.check();
    if (early !== null) return await endStopped(run, early);
    // The round before on this PR: what this one reviews since, and the ids of the sticky
    // comments it wrote, which this round edits without listing the PR's comments to find them.
    const previous = await deps.store.previousRound(
      run.round.repo,
      run.round.pullNumber,
      run.round.number,
    );
    await openRound(run, previous);
    const review = await reviewPullRequest(run, previous);
    const late = await run.lease.check();
    if (late !== null) return await endStopped(run, late);
    const stopped = await publish(run, review, previous);
    if (stopped !== null) {
      // A push landing while this round published may have reviewed and written its board
      // meanwhile: a late "superseded" edit would overwrite its result.
      run.boardHandedOn = stopped.kind === "superseded";
      return await endStopped(run, stopped);
    }
    await run.board?.flush();
    deps.killPoint?.("after-board");
    await run.lease.finish({ state: "completed" });
    deps.log.info(
      {
        ...run.fields,
        verdict: review.consensus.verdict,
        clusters: review.consensus.clusters.length,
      },
      "round completed",
    );
  } catch (error) {
    await failRound(run, error);
  } finally {
    await rm(run.workspaceDir, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** What people said of the findings shapes what goes out; then it goes out, step by step. */
async function publish(run: RoundRun, review: ReviewChangeResult, previous: PreviousRound | null) {
  const { round, deps, prepared } = run;
  const consensus = await applyFeedback(
    run.octokit,
    await withCodeContexts(review.consensus, run.workspaceDir),
    { round, learn: prepared.plan.learn === "repo" },
    deps,
  );
  if (run.checkRunId === undefined) throw new Error("the round's check run was not created");
  // Checked against the head's tree while it is still there (removed when the round ends).
  const suggestions = await checkSuggestions(consensus.clusters, {
    workspaceDir: run.workspaceDir,
    index: ChangedLineIndex.fromFiles(review.change.files),
  });
  return publishRoundResults(
    run.octokit,
    {
      round,
      consensus,
      files: review.change.files,
      render: run.render,
      checkRunId: run.checkRunId,
      publish: prepared.plan.publish,
      wait: { signal: run.lease.signal, clock: deps.clock },
      suggestions,
      webUrl: githubWebUrl(deps.env),
      ...(previous?.artifacts.consensusCommentId === undefined
        ? {}
        : { knownConsensusId: previous.artifacts.consensusCommentId }),
    },
    deps,
    { beforeStep: () => run.lease.check(), reached: (point) => deps.killPoint?.(point) },
  );
}
