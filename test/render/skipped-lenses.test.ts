import { describe, expect, it } from "vitest";
import type { LensReport } from "../../src/agent/lens-report.js";
import { buildConsensus } from "../../src/consensus/build-consensus.js";
import { deriveVerdict } from "../../src/findings/derive-verdict.js";
import type { LensFinding } from "../../src/findings/schema.js";
import { renderCheckRunOutput } from "../../src/render/render-check-run-output.js";
import { renderConsensusComment } from "../../src/render/render-consensus-comment.js";
import { renderStatusBoard } from "../../src/render/render-status-board.js";
import type { RoundStatus } from "../../src/run/round-status.js";
import { lensReport } from "../builders/lens-report.js";
import { LENS_TITLES } from "./helpers/lens-titles.js";

const REASON = "agent CLIs do not review fork PRs here";
const LENSES = ["security", "correctness"];

const finding: LensFinding = {
  file: "src/db.js",
  line: 12,
  endLine: 12,
  severity: "medium",
  confidence: "high",
  title: "SQL built by string concatenation",
  body: "The id reaches the query unescaped.",
};

function report(model: string, lens: string, overrides: Partial<LensReport> = {}): LensReport {
  const findings = lens === "security" ? [finding] : [];
  return lensReport({
    model,
    provider: model === "cli-model" ? "claude-code" : "chat",
    lens,
    text: `VERDICT: ${deriveVerdict(findings)}`,
    findings,
    turns: 2,
    ...overrides,
  });
}

function skipped(model: string, lens: string): LensReport {
  return report(model, lens, {
    outcome: "skipped",
    verdict: null,
    statedVerdict: null,
    text: "",
    findings: [],
    failure: REASON,
    turns: 0,
    usage: { inputTokens: 0, outputTokens: 0 },
  });
}

function consensusOf(reports: LensReport[], models: string[]) {
  return buildConsensus({
    reports,
    modelOrder: models,
    lensOrder: LENSES,
    providers: Object.fromEntries(reports.map((entry) => [entry.model, entry.provider])),
  });
}

/** Two chat models agree on one finding; the agent CLI was kept from the fork's PR. */
function oneModelSkipped() {
  return consensusOf(
    [
      ...LENSES.map((lens) => report("alpha", lens)),
      ...LENSES.map((lens) => report("beta", lens)),
      ...LENSES.map((lens) => skipped("cli-model", lens)),
    ],
    ["alpha", "beta", "cli-model"],
  );
}

function everyModelSkipped() {
  return consensusOf(
    ["cli-model", "cli-model-2"].flatMap((model) => LENSES.map((lens) => skipped(model, lens))),
    ["cli-model", "cli-model-2"],
  );
}

/** The comment above its per-model detail: what a reader takes as the result. */
function summaryOf(body: string): string {
  return body.slice(0, body.indexOf("<details>"));
}

describe("consensus with a skipped model", () => {
  it("counts only the models that reviewed: agreement is 2/2, not 2/3", () => {
    const consensus = oneModelSkipped();
    expect(consensus.modelCount).toBe(2);
    expect(consensus.clusters.map((cluster) => cluster.models)).toEqual([["alpha", "beta"]]);
    const { body } = renderConsensusComment(consensus, { lenses: LENS_TITLES });
    expect(body).toContain("consensus across 2 models");
    expect(body).toContain("2/2");
    expect(body).not.toContain("2/3");
  });

  it("says the review is partial, names the skipped model and why, and calls it no failure", () => {
    const { body } = renderConsensusComment(oneModelSkipped(), { lenses: LENS_TITLES });
    const summary = summaryOf(body);
    expect(summary).toContain(
      "⏭️ 2 of 6 lens reviews skipped, so this review is partial: these models did not review the change.",
    );
    expect(summary).toContain(`- \`cli-model\` — skipped: ${REASON}`);
    expect(summary).not.toContain("did not complete");
    // Its detail: skipped, not "no lens completed" and not a failure.
    expect(body).toContain("<b>cli-model</b> (claude-code) — skipped");
    expect(body).toContain(`⏭️ skipped: ${REASON}`);
    expect(body).not.toContain("**Not completed:**");
  });

  it("titles the check as partial with the skipped count, and lists the skip in its summary", () => {
    const output = renderCheckRunOutput(oneModelSkipped(), { lenses: LENS_TITLES });
    expect(output.title).toBe("Minor issues (partial: 2 of 6 lens reviews skipped)");
    expect(output.summary).toContain(`- \`cli-model\` — skipped: ${REASON}`);
    expect(output.text).toContain("⏭️ skipped");
  });
});

describe("a round where every model was skipped", () => {
  it("never reads as clean: no verdict, no model completed, the skips listed", () => {
    const consensus = everyModelSkipped();
    expect(consensus.modelCount).toBe(0);
    const { body } = renderConsensusComment(consensus, { lenses: LENS_TITLES });
    const summary = summaryOf(body);
    expect(summary).toContain("**Verdict: none**");
    expect(summary).not.toContain("No material issues found");
    expect(summary).toContain("⏭️ 4 of 4 lens reviews skipped");
    expect(summary).toContain(`- \`cli-model-2\` — skipped: ${REASON}`);

    const output = renderCheckRunOutput(consensus, { lenses: LENS_TITLES });
    expect(output.title).toBe("No model completed the review");
    expect(output.summary).not.toContain("No material issues found");
  });
});

function boardStatus(states: { model: string; skipped: boolean }[]): RoundStatus {
  return {
    headSha: "0123456789abcdef0123456789abcdef01234567",
    round: 1,
    updatedAt: new Date(Date.UTC(2026, 10, 30, 12, 0, 0)),
    reviewers: states.map(({ model, skipped: isSkipped }) => ({
      model,
      provider: isSkipped ? "claude-code" : "chat",
      lenses: LENSES.map((lens) =>
        isSkipped
          ? { lens, state: "skipped" as const, reason: REASON }
          : { lens, state: "done" as const, verdict: "No material issues found" as const },
      ),
    })),
    notReviewed: [],
    finished: true,
  };
}

describe("status board with skipped lenses", () => {
  it("shows each skipped lens with its reason, the model as skipped, and counts it finished", () => {
    const board = renderStatusBoard(
      boardStatus([
        { model: "alpha", skipped: false },
        { model: "cli-model", skipped: true },
      ]),
    );
    expect(board).toContain("2/2 reviewers finished");
    expect(board).toContain("#### `cli-model` · claude-code — ⏭️ skipped");
    expect(board).toContain(`- ⏭️ **security** — skipped: ${REASON}`);
    expect(board).toContain(`- ⏭️ **correctness** — skipped: ${REASON}`);
    expect(board).not.toMatch(/cli-model.*(failed|done)/);
    expect(board).toContain("Every changed file was reviewed.");
  });

  it("does not claim the files were reviewed when every model was skipped", () => {
    const board = renderStatusBoard(boardStatus([{ model: "cli-model", skipped: true }]));
    expect(board).toContain("— ⏭️ skipped");
    expect(board).not.toContain("Every changed file was reviewed.");
  });
});

describe("since the last round, with a skipped model", () => {
  const previous = {
    headSha: "89abcdef0123456789abcdef0123456789abcdef",
    round: 1,
    findings: [
      {
        fingerprint: "only-the-cli-saw-it",
        title: "Shell command built from the branch name",
        file: "scripts/release.sh",
        line: 4,
        severity: "high" as const,
      },
    ],
  };

  it("does not let a finding only the skipped model reported pass silently for fixed", () => {
    const consensus = buildConsensus({
      reports: [
        ...LENSES.map((lens) => report("alpha", lens)),
        ...LENSES.map((lens) => skipped("cli-model", lens)),
      ],
      modelOrder: ["alpha", "cli-model"],
      lensOrder: LENSES,
      providers: { alpha: "chat", "cli-model": "claude-code" },
      round: 2,
      previous,
    });
    expect(consensus.comparison?.fixed).toHaveLength(1);
    const { body } = renderConsensusComment(consensus, { lenses: LENS_TITLES });
    expect(body).toContain("✅ 1 fixed");
    expect(body).toContain(
      "_Not every lens review completed this round: a finding that only a missing one had reported counts as fixed here, and may still be there._",
    );
  });

  it("says nothing of the kind when every model reviewed", () => {
    const consensus = buildConsensus({
      reports: LENSES.map((lens) => report("alpha", lens)),
      modelOrder: ["alpha"],
      lensOrder: LENSES,
      providers: { alpha: "chat" },
      round: 2,
      previous,
    });
    const { body } = renderConsensusComment(consensus, { lenses: LENS_TITLES });
    expect(body).toContain("✅ 1 fixed");
    expect(body).not.toContain("Not every lens review completed this round");
  });
});
