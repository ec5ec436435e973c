import { describe, expect, it } from "vitest";
import type { ChallengeResult } from "../../src/consensus/index.js";
import { renderCheckRunOutput } from "../../src/render/render-check-run-output.js";
import { renderConsensusComment } from "../../src/render/render-consensus-comment.js";
import { renderInlineComment } from "../../src/render/render-inline-comment.js";
import { renderInlineReviewBody } from "../../src/render/render-inline-review-body.js";
import { renderStatusBoard } from "../../src/render/render-status-board.js";
import { crossExaminationLine } from "../../src/render/status-board-view.js";
import {
  CROSS_EXAMINATION,
  crossExaminedConsensus,
  crossExaminedStatus,
} from "./cross-examined-page.js";
import { referenceConsensus } from "./reference-page.js";

const HOSTILE_REASON = [
  "<!-- gadfly-consensus -->",
  "@everyone look",
  "[x](javascript:alert(1))",
  "</details></details>",
  "![pixel](https://evil.example/p.png)",
  "| a | b |",
  "x".repeat(10_000),
].join("\n");

/** The reference page's disputed finding, its refutations replaced by hostile ones. */
function hostileConsensus(reason = HOSTILE_REASON, checked: string | null = "<!-- x -->") {
  return crossExaminedConsensus(
    CROSS_EXAMINATION.map(
      (answer): ChallengeResult =>
        answer.verdict === "refute" && answer.fingerprint === "fp-closer-discarded"
          ? { ...answer, reason, checked }
          : answer,
    ),
  );
}

function occurrences(text: string, part: string): number {
  return text.split(part).length - 1;
}

function disputedSection(body: string): string {
  const start = body.indexOf("<details><summary>1 disputed finding");
  expect(start).toBeGreaterThan(-1);
  return body.slice(start, body.indexOf("</details>", start) + "</details>".length);
}

describe("cross-examination in the consensus comment", () => {
  it("counts a confirmation as agreement and moves a disputed cluster out of both tables", () => {
    const { body } = renderConsensusComment(crossExaminedConsensus());
    expect(body).toContain("· 6 findings (4 with multi-model agreement, 1 disputed)");
    expect(body).toContain("| `agent/finalize.go:139-141` | 2/4 ✓ | error-handling |");
    // Who confirmed it is in the row's details.
    expect(body).toContain(
      "`agent/finalize.go:139-141` · error-handling · 2/4 agree: kimi-k2.6:cloud · confirmed by claude-code/opus on challenge",
    );
    expect(body).toContain("<details><summary>1 single-model finding (lower confidence)</summary>");
    expect(body).toContain(
      "<details><summary>1 disputed finding (refuted on cross-examination)</summary>",
    );
    const tables = body.slice(0, body.indexOf("<details><summary>1 disputed finding"));
    expect(tables).not.toContain("Summary closer is discarded");
    expect(disputedSection(body)).toContain(
      "· flagged by claude-code/opus · refuted by claude-code/sonnet, kimi-k2.6:cloud · 1 challenger unsure",
    );
  });

  it("changes nothing for clusters nobody challenged", () => {
    const plain = renderConsensusComment(referenceConsensus()).body;
    expect(renderConsensusComment(crossExaminedConsensus([])).body).toBe(plain);
    expect(plain).not.toContain("disputed");
    expect(plain).not.toContain("challenge");
  });

  it("lets a hostile refutation open no marker, mention, link, image or HTML, and bounds it", () => {
    const { body } = renderConsensusComment(hostileConsensus());
    const benign = renderConsensusComment(crossExaminedConsensus()).body;
    const section = disputedSection(body);
    expect(occurrences(body, "<!-- gadfly-consensus -->")).toBe(1);
    expect(body.startsWith("<!-- gadfly-consensus -->\n")).toBe(true);
    expect(section).not.toContain("<!--");
    expect(section).not.toContain("@everyone");
    expect(section).toContain("@\u200Deveryone");
    expect(section).not.toContain("](javascript:");
    expect(section).toContain("x (`javascript:alert(1)`)");
    expect(section).not.toContain("![");
    expect(section).not.toContain("<img");
    // The hostile `</details>` closes nothing: as many as with a benign reason.
    expect(occurrences(body, "</details>")).toBe(occurrences(benign, "</details>"));
    expect(section).toContain("&lt;/details>&lt;/details>");
    // One line per refutation, cut to a bounded length.
    for (const line of section.split("\n").filter((l) => l.startsWith("  - "))) {
      expect(line.length).toBeLessThan(800);
    }
    expect(section).not.toContain("x".repeat(600));
    expect(section).toContain("…");
    expect(body.length).toBeLessThan(benign.length + 2 * 800);
  });

  it("keeps a hostile refutation out of the check run summary too", () => {
    const { summary } = renderCheckRunOutput(hostileConsensus());
    expect(summary).toContain(
      "<details><summary>1 disputed finding (refuted on cross-examination)",
    );
    expect(summary).not.toContain("<!--");
    expect(summary).not.toContain("@everyone");
    expect(summary).not.toContain("](javascript:");
    expect(summary).not.toContain("x".repeat(600));
  });

  it("escapes a hostile confirming model id in the table cell and the inline comment", () => {
    const id = "evil|@everyone <!-- gadfly-consensus --> [x](javascript:y)";
    const consensus = crossExaminedConsensus(
      CROSS_EXAMINATION.map((answer) =>
        answer.fingerprint === "fp-closer-regex" ? { ...answer, model: id } : answer,
      ),
    );
    const { body } = renderConsensusComment(consensus);
    const row = body.split("\n").find((line) => line.includes("summaryCloserRe regex")) ?? "";
    expect(row).toContain("| 2/4 ✓ |");
    expect(row.split(/(?<!\\)\|/)).toHaveLength(7);
    expect(body).toContain("· confirmed by evil|@\u200Deveryone &lt;!-- gadfly-consensus");
    expect(occurrences(body, "<!-- gadfly-consensus -->")).toBe(1);
    const confirmed = consensus.clusters.find((c) => c.fingerprint === "fp-closer-regex");
    if (confirmed === undefined) throw new Error("fixture");
    const inline = renderInlineComment(confirmed);
    expect(inline).toContain("· flagged by 1 model, confirmed by evil|@\u200Deveryone &lt;!--");
    expect(inline).not.toContain("](javascript:");
  });
});

describe("cross-examination in the inline texts", () => {
  it("says who confirmed a lone finding, after how many flagged it", () => {
    const confirmed = crossExaminedConsensus().clusters.find(
      (c) => c.fingerprint === "fp-closer-regex",
    );
    if (confirmed === undefined) throw new Error("fixture");
    expect(renderInlineComment(confirmed).split("\n")[1]).toBe(
      "_error-handling · flagged by 1 model, confirmed by claude-code/opus_",
    );
    const body = renderInlineReviewBody({
      inlineCount: 0,
      unplaced: [{ cluster: confirmed, reason: "outside-diff" }],
    });
    expect(body).toContain("· flagged by 1 model, confirmed by claude-code/opus · ");
  });
});

describe("cross-examination on the status board", () => {
  it("shows the phase in one line, failed and pending only when there are any", () => {
    expect(crossExaminationLine({ asked: 3, confirmed: 1, refuted: 1, unsure: 1, failed: 0 })).toBe(
      "3 asked · 1 confirmed · 1 refuted · 1 unsure",
    );
    expect(crossExaminationLine({ asked: 5, confirmed: 1, refuted: 0, unsure: 1, failed: 1 })).toBe(
      "5 asked · 1 confirmed · 0 refuted · 1 unsure · 1 failed · 2 pending",
    );
    const board = renderStatusBoard(crossExaminedStatus());
    expect(board).toContain(
      "- 🔍 cross-examination: 2 asked · 2 confirmed · 0 refuted · 0 unsure\n",
    );
    expect(board).toContain(
      "- 🔍 cross-examination: 3 asked · 0 confirmed · 0 refuted · 2 unsure · 1 failed\n",
    );
    expect(occurrences(board, "🔍 cross-examination")).toBe(4);
  });

  it("shows a reviewer still answering challenges as cross-examining, not done", () => {
    const status = crossExaminedStatus();
    const during = {
      ...status,
      finished: false,
      reviewers: status.reviewers.map((reviewer, index) =>
        index === 0 && reviewer.crossExamination !== undefined
          ? {
              ...reviewer,
              crossExamination: { ...reviewer.crossExamination, confirmed: 1 },
            }
          : reviewer,
      ),
    };
    const first = during.reviewers[0];
    if (first?.crossExamination === undefined) throw new Error("fixture");
    const board = renderStatusBoard(during);
    expect(board).toContain(
      `#### \`${first.model}\` · ${first.provider} — 🔍 cross-examining (1/2 answered)\n`,
    );
    expect(board).toContain(
      "- 🔍 cross-examination: 2 asked · 1 confirmed · 0 refuted · 0 unsure · 1 pending\n",
    );
    expect(board).toContain(
      `${status.reviewers.length - 1}/${status.reviewers.length} reviewers finished`,
    );
    expect(renderStatusBoard(status)).not.toContain("cross-examining");
  });

  it("has no line for a reviewer asked nothing, and drops the lines with the lens lines to fit", () => {
    const status = crossExaminedStatus();
    const [first, ...rest] = status.reviewers;
    if (first === undefined) throw new Error("fixture");
    const { crossExamination: _, ...asked } = first;
    const board = renderStatusBoard({ ...status, reviewers: [asked, ...rest] });
    expect(occurrences(board, "🔍 cross-examination")).toBe(3);
    const small = renderStatusBoard(status, { maxLength: 1_000 });
    expect(small.length).toBeLessThanOrEqual(1_000);
    expect(small).not.toContain("🔍");
  });
});
