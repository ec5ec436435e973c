import type { LensDefinition } from "../agent/index.js";
import type { ReviewPlan } from "../config/index.js";
import type { RenderOptions } from "../render/index.js";
import type { RoundStatus } from "../run/index.js";
import type { StoredRound } from "../run/store/index.js";
import type { GitHubClient } from "./github-client.js";
import { publishStatusBoard } from "./publish-status-board.js";
import type { RoundDependencies } from "./round-dependencies.js";
import { DELIVERY_WRITE_WAIT_MS } from "./write-grant.js";

/**
 * The board of a push's round that waits for pushes to settle, posted by the
 * receiver at once so the author sees the push was noticed: every reviewer
 * queued and when the review starts. Its id is stored with the round, so the
 * worker that runs the round later edits this comment. A GitHub error is thrown
 * (the delivery is answered 500 and redelivered; the round is already queued).
 */
export async function postWaitingBoard(
  octokit: GitHubClient,
  waiting: {
    round: StoredRound;
    plan: ReviewPlan;
    lenses: readonly LensDefinition[];
    /** A reader limit that holds the round past its quiet period: the board says which. */
    heldBecause?: string | undefined;
    /** The PR's board to edit (a round held again at its claim); absent, it is found or posted. */
    knownId?: number | undefined;
  },
  startsAt: Date,
  deps: Pick<RoundDependencies, "store" | "clock" | "botLogin">,
): Promise<void> {
  const { round, plan } = waiting;
  const status: RoundStatus = {
    headSha: round.headSha,
    round: round.number,
    updatedAt: new Date(deps.clock.now()),
    reviewers: plan.models.map((model) => ({
      model: model.id,
      provider: model.provider,
      lenses: plan.lenses.map((lens) => ({ lens, state: "queued" as const })),
    })),
    notReviewed: [],
    finished: false,
    settling:
      waiting.heldBecause === undefined
        ? { startsAt }
        : { startsAt, heldBecause: waiting.heldBecause },
  };
  const render: RenderOptions = {
    lenses: Object.fromEntries(
      waiting.lenses.map((lens) => [lens.id, { title: lens.title, emoji: lens.emoji }]),
    ),
  };
  const id = await publishStatusBoard(
    octokit,
    { repo: round.repo, pullNumber: round.pullNumber, botLogin: deps.botLogin },
    status,
    render,
    waiting.knownId,
    // Anyone who can push (a fork's author too) posts it, so it is a board edit: it yields to
    // every other write and leaves the reserve for final comments, reviews, checks and a
    // maintainer's trigger; and it never waits past what GitHub waits for the delivery's answer.
    { priority: "board", maxWaitMs: DELIVERY_WRITE_WAIT_MS },
  );
  await deps.store.setArtifacts(round.id, { statusCommentId: id });
}
