import type { LensReport } from "../agent/index.js";
import type { Consensus, PreviousFinding } from "../consensus/index.js";
import { buildConsensus } from "../consensus/index.js";
import type { ChangeSet } from "./change-set.js";
import { challengeResults, runCrossExaminationPhase } from "./cross-examination-phase.js";
import type { ChallengeRecord } from "./cross-examine.js";
import { type ChangeSetSource, prepareChangeSet } from "./prepare-change-set.js";
import { type ReviewRoundOptions, reviewRound } from "./review-round.js";
import type { RoundStatus } from "./round-status.js";

export interface ReviewChangeOptions extends Omit<ReviewRoundOptions, "change"> {
  /**
   * The change as read from GitHub or from git (with the convention files of its base); the
   * ignore globs, the diff budget and the instructions come from the plan.
   */
  source: Omit<ChangeSetSource, "ignore" | "diffBudgetChars" | "instructions">;
  /** The pull request's last completed round: findings are then compared (fixed, still open, new). */
  previous?: { headSha: string; round: number; findings: PreviousFinding[] };
  /** Cross-examination challenges that ended before a restart: not asked again. */
  finishedChallenges?: readonly ChallengeRecord[];
  /** Called as each challenge ends (to persist it) before the round goes on. */
  onChallenge?: (record: ChallengeRecord) => Promise<void>;
}

export interface ReviewChangeResult {
  /** What the reviewers were given, and what they were not (`notReviewed`). */
  change: ChangeSet;
  /** Every lens report, in config order (done, failed, skipped or cancelled). */
  reports: LensReport[];
  status: RoundStatus;
  consensus: Consensus;
  /** The round's cross-examination, every challenge asked (none when it is off). */
  challenges: ChallengeRecord[];
}

/**
 * The review pipeline both the app and the CLI run once they hold a plan and a
 * change: the change set (ignore globs, diff budget), every model through every
 * lens, then the consensus across models. Knows nothing of GitHub or a terminal;
 * publishing is the caller's.
 */
export async function reviewChange(options: ReviewChangeOptions): Promise<ReviewChangeResult> {
  const { source, previous, finishedChallenges, onChallenge, ...rest } = options;
  const { plan } = options;
  const change = prepareChangeSet({
    ...source,
    ignore: plan.ignore,
    diffBudgetChars: plan.review.diffBudgetChars,
    instructions: plan.instructions,
  });
  const reviewed = await reviewRound({ ...rest, change });
  const { reports } = reviewed;
  const { records, status } = await runCrossExaminationPhase({
    ...rest,
    change,
    reports,
    status: reviewed.status,
    ...(finishedChallenges === undefined ? {} : { finishedChallenges }),
    ...(onChallenge === undefined ? {} : { onChallenge }),
  });
  const consensus = buildConsensus({
    reports,
    modelOrder: plan.models.map((model) => model.id),
    lensOrder: plan.lenses,
    providers: Object.fromEntries(plan.models.map((model) => [model.id, model.provider])),
    round: options.round,
    ...(previous === undefined ? {} : { previous }),
    challenges: challengeResults(records),
  });
  return { change, reports, status, consensus, challenges: records };
}
