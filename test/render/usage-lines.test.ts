import { describe, expect, it } from "vitest";
import { roundUsage } from "../../src/accounting/index.js";
import { renderConsensusComment } from "../../src/render/render-consensus-comment.js";
import { renderStatusBoard } from "../../src/render/render-status-board.js";
import { lensReport } from "../builders/lens-report.js";
import { finishedStatus, referenceConsensus } from "./reference-page.js";

const usage = roundUsage({
  reports: [
    {
      ...lensReport({ model: "claude-code/opus", lens: "security" }),
      usage: { inputTokens: 52_100, cachedInputTokens: 12_000, outputTokens: 3_400 },
      verifyUsage: { inputTokens: 2_100, outputTokens: 400 },
      durationMs: 72_000,
    },
  ],
  challenges: [{ model: "claude-code/opus", usage: { inputTokens: 900, outputTokens: 100 } }],
  pricing: { "claude-code/opus": { input: 5, cachedInput: 0.5, output: 25 } },
});

describe("what a round spent, where it is published", () => {
  it("gives each reviewer that spent anything one line on the board, and none to the others", () => {
    const status = finishedStatus();
    const [first, ...rest] = status.reviewers;
    if (first === undefined || usage.models[0] === undefined) throw new Error("fixture");
    const board = renderStatusBoard({
      ...status,
      reviewers: [{ ...first, usage: usage.models[0].total }, ...rest],
    });
    expect(board).toContain("- 🧾 53k tokens in (12k cached) · 3.5k out · 1 min 12 s · ≈ $0.30\n");
    expect(board.match(/🧾/g)).toHaveLength(1);
    expect(renderStatusBoard(status)).not.toContain("🧾");
  });

  it("puts the round's totals and each phase's cost in the consensus footer", () => {
    const { body } = renderConsensusComment({ ...referenceConsensus(), usage });
    expect(body).toContain(
      "<sub>🧾 This round: 53k tokens in (12k cached) · 3.5k out · 1 min 12 s of model time · ≈ $0.30 (review $0.27 · verify $0.02 · cross-examination $0.01)</sub>",
    );
    expect(renderConsensusComment(referenceConsensus()).body).not.toContain("🧾");
  });
});
