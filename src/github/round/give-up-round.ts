import { DEFAULT_REPO_CONFIG, planReview } from "../../config/index.js";
import { failedCheck } from "../../render/index.js";
import type { ClaimedRound, LensStatus, RoundStatus } from "../../run/index.js";
import { describeError } from "../describe-error.js";
import type { GitHubClient } from "../github-client.js";
import { publishStatusBoard } from "../publish-status-board.js";
import type { RoundDependencies } from "../round-dependencies.js";
import { endRound } from "./end-round.js";

/**
 * Gives a round up for good (it spent its attempts: crashes of its workers, starts that failed):
 * its board says so with the reason and every lens that had not ended, its check is completed with
 * the reason and how to try again, and the store records it failed. GitHub refusing the board or
 * the check does not keep the store from recording the end.
 */
export async function giveUpRound(
  octokit: GitHubClient,
  claimed: ClaimedRound,
  failure: string,
  deps: RoundDependencies,
): Promise<void> {
  const { round, lease } = claimed;
  const fields = {
    round: round.id,
    repo: `${round.repo.owner}/${round.repo.repo}`,
    pr: round.pullNumber,
  };
  deps.log.warn({ ...fields, failure }, "round abandoned after repeated attempts");
  lease.stop({ kind: "ended" });
  try {
    await publishStatusBoard(
      octokit,
      { repo: round.repo, pullNumber: round.pullNumber, botLogin: deps.botLogin },
      gaveUpStatus(claimed, failure, deps),
      { lenses: {} },
      round.artifacts.statusCommentId,
      { priority: "normal" },
    );
  } catch (error) {
    deps.log.warn(
      { ...fields, err: describeError(error) },
      "could not say on the board that the round was given up",
    );
  }
  await endRound(octokit, round, lease, round.artifacts.checkRunId, {
    ending: { state: "failed", failure },
    conclusion: "neutral",
    check: failedCheck(failure),
  }).catch((error: unknown) =>
    deps.log.warn(
      { ...fields, err: describeError(error) },
      "could not complete the given-up round's check",
    ),
  );
}

/** The board of a given-up round: the app's reviewers, each lens as it ended or given up with it. */
function gaveUpStatus(
  claimed: ClaimedRound,
  failure: string,
  deps: RoundDependencies,
): RoundStatus {
  const { plan } = planReview(deps.config, DEFAULT_REPO_CONFIG, deps.lenses);
  const ended = new Map(
    claimed.finished.map((report) => [`${report.model}\u0000${report.lens}`, report]),
  );
  return {
    headSha: claimed.round.headSha,
    round: claimed.round.number,
    updatedAt: new Date(deps.clock.now()),
    reviewers: plan.models.map((model) => ({
      model: model.id,
      provider: model.provider,
      lenses: plan.lenses.map((lens): LensStatus => {
        const report = ended.get(`${model.id}\u0000${lens}`);
        if (report?.outcome === "done" && report.verdict !== null) {
          return { lens, state: "done", verdict: report.verdict };
        }
        return { lens, state: "cancelled", reason: failure };
      }),
    })),
    notReviewed: [],
    finished: true,
    failure,
  };
}
