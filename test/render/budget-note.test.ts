import { describe, expect, it } from "vitest";
import type { LensReport } from "../../src/agent/lens-report.js";
import { buildConsensus } from "../../src/consensus/build-consensus.js";
import type { Consensus } from "../../src/consensus/consensus.js";
import { renderCheckRunOutput } from "../../src/render/render-check-run-output.js";
import { renderConsensusComment } from "../../src/render/render-consensus-comment.js";
import { renderStatusBoard } from "../../src/render/render-status-board.js";
import type { RoundStatus } from "../../src/run/round-status.js";
import { lensReport } from "../builders/lens-report.js";
import { LENS_TITLES } from "./helpers/lens-titles.js";

const CAP = "round cap of 1,500 tokens";
const SKIP = `budget reached — ${CAP}`;
const DOWNSHIFT = "large change (1,234 lines): security, correctness only";

function report(model: string, lens: string, skipped: boolean): LensReport {
  return lensReport({
    model,
    provider: "chat",
    lens,
    ...(skipped
      ? { outcome: "skipped", verdict: null, statedVerdict: null, failure: SKIP, turns: 0 }
      : {}),
  });
}

/** alpha reviewed both lenses; beta's correctness was never started for the cap. */
function budgetConsensus(budget: Consensus["budget"]): Consensus {
  const consensus = buildConsensus({
    reports: [
      report("alpha", "security", false),
      report("alpha", "correctness", false),
      report("beta", "security", false),
      report("beta", "correctness", true),
    ],
    modelOrder: ["alpha", "beta"],
    lensOrder: ["security", "correctness"],
    providers: { alpha: "chat", beta: "chat" },
  });
  return { ...consensus, ...(budget === undefined ? {} : { budget }) };
}

describe("a round the budget cut short", () => {
  it("titles the check 'partial: budget reached' with the cap, before the skipped count", () => {
    const output = renderCheckRunOutput(budgetConsensus({ reached: CAP }), {
      lenses: LENS_TITLES,
    });
    expect(output.title).toBe(
      `No material issues found (partial: budget reached — ${CAP}; 1 of 4 lens reviews skipped)`,
    );
    expect(output.summary).toContain(`⏭️ **Partial: budget reached** — ${CAP}`);
    expect(output.summary).toContain(`- \`beta\` — skipped: ${SKIP}`);
  });

  it("says in the consensus which cap, that lenses were not started, and the cross-examination", () => {
    const { body } = renderConsensusComment(
      budgetConsensus({ reached: CAP, crossExaminationSkipped: true }),
      { lenses: LENS_TITLES },
    );
    expect(body).toContain(
      `⏭️ **Partial: budget reached** — ${CAP}: lenses not yet started were skipped and the cross-examination was not run.`,
    );
    expect(body).toContain("these models' lenses were not started.");
    expect(body).not.toContain("these models did not review the change");
  });

  it("states a downshift on the check, the consensus and the board", () => {
    const consensus = budgetConsensus({ downshift: DOWNSHIFT });
    expect(renderCheckRunOutput(consensus).title).toBe(
      `No material issues found (partial: ${DOWNSHIFT}; 1 of 4 lens reviews skipped)`,
    );
    const line = `📉 Downshifted for a ${DOWNSHIFT} — \`budget.downshift\`.`;
    expect(renderConsensusComment(consensus).body).toContain(line);
    expect(renderStatusBoard(boardStatus({ downshift: DOWNSHIFT }))).toContain(line);
  });

  it("names the repository's size cap when it is what downshifted the round", () => {
    const by = "budget.downshift, filters.maxSize";
    const line = `📉 Downshifted for a ${DOWNSHIFT} — \`${by}\`.`;
    const consensus = budgetConsensus({ downshift: DOWNSHIFT, downshiftBy: by });
    expect(renderConsensusComment(consensus).body).toContain(line);
    expect(renderStatusBoard(boardStatus({ downshift: DOWNSHIFT, downshiftBy: by }))).toContain(
      line,
    );
  });

  it("shows the cap on the board and each skipped lens under its model", () => {
    const board = renderStatusBoard(boardStatus({ reached: CAP }));
    expect(board).toContain(
      `⏭️ **Partial: budget reached** — ${CAP}: lenses not yet started were skipped; the rest of the round is published as usual.`,
    );
    expect(board).toContain(`- ⏭️ **correctness** — skipped: ${SKIP}`);
    expect(board).toContain("— ⏭️ partial (1/2 done, 1 skipped)");
  });

  it("says nothing of a budget when the round ran its whole plan", () => {
    const output = renderCheckRunOutput(budgetConsensus(undefined));
    expect(output.title).toBe("No material issues found (partial: 1 of 4 lens reviews skipped)");
    const board = renderStatusBoard(boardStatus(undefined));
    expect(board).not.toContain("Partial: budget reached");
    expect(board).not.toContain("budget.downshift");
  });
});

function boardStatus(budget: RoundStatus["budget"]): RoundStatus {
  return {
    headSha: "abc1234def",
    round: 1,
    updatedAt: new Date(0),
    reviewers: [
      {
        model: "beta",
        provider: "chat",
        lenses: [
          { lens: "security", state: "done", verdict: "No material issues found" },
          { lens: "correctness", state: "skipped", reason: SKIP },
        ],
      },
    ],
    notReviewed: [],
    finished: true,
    ...(budget === undefined ? {} : { budget }),
  };
}
