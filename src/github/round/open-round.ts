import type { PreviousRound } from "../../run/store/index.js";
import { findOwnCheckRun, startCheckRun } from "../publish-check-run.js";
import { createStatusBoardWriter } from "../status-board-writer.js";
import type { RoundRun } from "./round-run.js";

/**
 * The round is under way on the PR: its check `in_progress` (adopted when a run before a kill
 * created it without recording it, found by the round's id) and its board, which edits the PR's
 * board an earlier round recorded (by id, without listing the PR's comments).
 */
export async function openRound(run: RoundRun, previous: PreviousRound | null): Promise<void> {
  const { round, deps } = run;
  const { store } = deps;
  if (run.checkRunId === undefined) {
    const unrecorded = (await store.publishSteps(round.id))["check-run"] === "intent";
    await store.markPublishStep(round.id, "check-run", "intent");
    run.checkRunId =
      (unrecorded
        ? await findOwnCheckRun(run.octokit, round.repo, round.headSha, round.id)
        : null) ??
      (await startCheckRun(
        run.octokit,
        round.repo,
        round.headSha,
        {
          title: "Review in progress",
          summary: `Gadfly round ${round.number} is reviewing \`${round.headSha.slice(0, 7)}\`.`,
        },
        round.id,
        { signal: run.lease.signal, clock: deps.clock },
      ));
    deps.killPoint?.("after-check-created");
    await store.setArtifacts(round.id, { checkRunId: run.checkRunId });
    await store.markPublishStep(round.id, "check-run", "done");
  }
  run.board = createStatusBoardWriter(run.octokit, {
    round,
    render: run.render,
    holding: () => holdsBoard(run),
    deps,
    fields: run.fields,
    ...(previous?.artifacts.statusCommentId === undefined
      ? {}
      : { knownId: previous.artifacts.statusCommentId }),
  });
  run.board.update(run.status);
}

/**
 * Whether this run still edits the PR's board: not after losing the round to another worker, and
 * not once a newer round owns the board (with a quiet period, the push that superseded this round
 * posted its own waiting board at once: this round's last edits would hide it).
 */
async function holdsBoard(run: RoundRun): Promise<boolean> {
  if (run.boardHandedOn) return false;
  const stop = await run.lease.check();
  if (stop?.kind === "lost") return false;
  return !(stop?.kind === "superseded" && run.deps.config.review.debounceSeconds > 0);
}
