import type { RenderOptions } from "../render/index.js";
import type { RoundStatus } from "../run/index.js";
import { CoalescedWriter } from "../run/index.js";
import type { StoredRound } from "../run/store/index.js";
import { describeError } from "./describe-error.js";
import type { GitHubClient } from "./github-client.js";
import { publishStatusBoard } from "./publish-status-board.js";
import type { RoundDependencies } from "./round-dependencies.js";
import { takeWriteGrant } from "./take-write-grant.js";
import type { WriteGrant } from "./write-grant.js";

export interface StatusBoardWriterOptions {
  round: StoredRound;
  render: RenderOptions;
  /** Checked before each edit: a worker that lost the round edits nothing. */
  holding: () => Promise<boolean>;
  deps: Pick<RoundDependencies, "store" | "clock" | "boardIntervalMs" | "botLogin" | "log">;
  /** The round's log fields. */
  fields: object;
  /**
   * The PR's board as an earlier round recorded it: the first edit goes to it by id instead of
   * listing the PR's comments to find it (and finds or posts one if it is gone).
   */
  knownId?: number;
}

/**
 * The round's live status board: states coalesced into at most one edit per
 * interval, the comment found again by its stored id, and that id stored the
 * first time it is posted so a resumed round edits the same comment. Each edit
 * first takes its token of GitHub's write budget, yielding to the round's other
 * writes (its last edit, the flush, does not yield); the states that arrive
 * while it waits go out as that one edit.
 */
export function createStatusBoardWriter(
  octokit: GitHubClient,
  options: StatusBoardWriterOptions,
): CoalescedWriter<RoundStatus, WriteGrant | undefined> {
  const { round, deps } = options;
  let boardId = round.artifacts.statusCommentId;
  return new CoalescedWriter<RoundStatus, WriteGrant | undefined>({
    // Slower as the round ages (a twentieth of its age): a long round stays within GitHub's
    // hourly budget for edits, while the first minute stays live.
    intervalMs: (age) => Math.max(deps.boardIntervalMs, age / 20),
    clock: deps.clock,
    onError: (error) =>
      deps.log.warn(
        { ...options.fields, err: describeError(error) },
        "status board edit failed; will retry",
      ),
    turn: ({ final, signal }) => takeWriteGrant(octokit, final ? "normal" : "board", signal),
    write: async (state, grant) => {
      if (!(await options.holding())) return;
      const id = await publishStatusBoard(
        octokit,
        { repo: round.repo, pullNumber: round.pullNumber, botLogin: deps.botLogin },
        state,
        options.render,
        boardId ?? options.knownId,
        { priority: "board", grant },
      );
      if (boardId !== id) {
        boardId = id;
        await deps.store.setArtifacts(round.id, { statusCommentId: id });
      }
    },
  });
}
