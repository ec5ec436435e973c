import { describe, expect, it } from "vitest";
import { buildConsensus } from "../../src/consensus/build-consensus.js";
import type { Consensus } from "../../src/consensus/consensus.js";
import { renderCheckRunOutput } from "../../src/render/render-check-run-output.js";
import { renderConsensusComment } from "../../src/render/render-consensus-comment.js";
import { renderStatusBoard } from "../../src/render/render-status-board.js";
import type { RoundStatus } from "../../src/run/round-status.js";
import { lensReport } from "../builders/lens-report.js";
import { LENS_TITLES } from "./helpers/lens-titles.js";

const SMALL = "small step (10 lines since abc1234): one model per lens";
const EMPTY = "nothing to review since abc1234: 2 open findings carried";

/** A small step: alpha reviewed security, beta correctness — one model per lens. */
function smallConsensus(): Consensus {
  const consensus = buildConsensus({
    reports: [
      lensReport({ model: "alpha", provider: "chat", lens: "security" }),
      lensReport({ model: "beta", provider: "chat", lens: "correctness" }),
    ],
    modelOrder: ["alpha", "beta"],
    lensOrder: ["security", "correctness"],
    providers: { alpha: "chat", beta: "chat" },
  });
  return { ...consensus, budget: { step: SMALL } };
}

/** An empty step: no lens ran. */
function emptyConsensus(): Consensus {
  const consensus = buildConsensus({
    reports: [],
    modelOrder: ["alpha", "beta"],
    lensOrder: ["security", "correctness"],
    providers: { alpha: "chat", beta: "chat" },
  });
  return { ...consensus, budget: { step: EMPTY, stepEmpty: true } };
}

describe("a light incremental step", () => {
  it("says a small step on the board, in the consensus and after the check's verdict, as no gap", () => {
    const output = renderCheckRunOutput(smallConsensus(), { lenses: LENS_TITLES });
    expect(output.title).toBe(`No material issues found — ${SMALL}`);
    expect(output.summary).toContain(`🔁 ${SMALL}.`);
    const { body } = renderConsensusComment(smallConsensus(), { lenses: LENS_TITLES });
    expect(body).toContain(`🔁 ${SMALL}.`);
    expect(body).not.toContain("Partial review");
    expect(renderStatusBoard(boardStatus({ step: SMALL }))).toContain(`🔁 ${SMALL}.`);
  });

  it("gives an empty step a verdict, not 'no model completed its review'", () => {
    const output = renderCheckRunOutput(emptyConsensus(), { lenses: LENS_TITLES });
    expect(output.title).toBe(`No material issues found — ${EMPTY}`);
    const { body } = renderConsensusComment(emptyConsensus(), { lenses: LENS_TITLES });
    expect(body).toContain(`🔁 ${EMPTY}.`);
    expect(body).not.toContain("no model completed its review");
    expect(body).toContain("No material issues found");
    // Without the note, the same empty consensus is a failed review, as before.
    const bare = { ...emptyConsensus(), budget: {} };
    expect(renderCheckRunOutput(bare, { lenses: LENS_TITLES }).title).toBe(
      "No model completed the review",
    );
    expect(renderStatusBoard(boardStatus({ step: EMPTY, stepEmpty: true }))).toContain(
      `🔁 ${EMPTY}.`,
    );
  });

  it("says nothing of a step when the round ran its whole plan", () => {
    const { body } = renderConsensusComment(
      { ...smallConsensus(), budget: {} },
      { lenses: LENS_TITLES },
    );
    expect(body).not.toContain("🔁 small step");
    expect(renderStatusBoard(boardStatus(undefined))).not.toContain("small step");
  });
});

function boardStatus(budget: RoundStatus["budget"]): RoundStatus {
  return {
    headSha: "abc1234def",
    round: 2,
    updatedAt: new Date(0),
    reviewers: [
      {
        model: "alpha",
        provider: "chat",
        lenses: [{ lens: "security", state: "done", verdict: "No material issues found" }],
      },
    ],
    notReviewed: [],
    finished: true,
    ...(budget === undefined ? {} : { budget }),
  };
}
