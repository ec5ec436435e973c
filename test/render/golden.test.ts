import { describe, it } from "vitest";
import { renderCheckRunOutput } from "../../src/render/render-check-run-output.js";
import { renderConsensusComment } from "../../src/render/render-consensus-comment.js";
import { renderInlineComment } from "../../src/render/render-inline-comment.js";
import { renderInlineReviewBody } from "../../src/render/render-inline-review-body.js";
import { renderInvalidConfigNotice } from "../../src/render/render-invalid-config-notice.js";
import { renderStatusBoard } from "../../src/render/render-status-board.js";
import { crossExaminedConsensus, crossExaminedStatus } from "./cross-examined-page.js";
import { expectGolden } from "./golden.js";
import { LENS_TITLES } from "./helpers/lens-titles.js";
import {
  finishedStatus,
  HEAD_SHA,
  referenceClusters,
  referenceConsensus,
  roundTwoConsensus,
  runningStatus,
  supersededStatus,
} from "./reference-page.js";

describe("goldens (UPDATE_GOLDEN=1 rewrites them)", () => {
  it("status board mid-round", () => {
    expectGolden("status-board-running", renderStatusBoard(runningStatus()));
  });

  it("status board once the round has finished", () => {
    expectGolden("status-board-finished", renderStatusBoard(finishedStatus()));
  });

  it("status board of a superseded round", () => {
    expectGolden("status-board-superseded", renderStatusBoard(supersededStatus()));
  });

  it("consensus comment of the reference page (round 1)", () => {
    const rendered = renderConsensusComment(referenceConsensus(), {
      lenses: LENS_TITLES,
      meta: { runId: "run-7f3a", headSha: HEAD_SHA, round: 1, fingerprints: ["fp-leading-marker"] },
    });
    expectGolden("consensus-round-1", rendered.body);
  });

  it("consensus comment of round 2, with what changed since round 1", () => {
    const rendered = renderConsensusComment(roundTwoConsensus(), {
      lenses: LENS_TITLES,
      findingUrls: {
        "fp-leading-marker": "https://github.com/steve/mort/pull/412#discussion_r2260099",
      },
    });
    expectGolden("consensus-round-2", rendered.body);
  });

  it("consensus comment whose per-model detail overflows into one comment per model", () => {
    const rendered = renderConsensusComment(referenceConsensus(), {
      lenses: LENS_TITLES,
      maxLength: 6_000,
      modelCommentUrls: {
        "claude-code/opus": "https://github.com/steve/mort/pull/412#issuecomment-3170001",
      },
    });
    expectGolden("consensus-overflow", rendered.body);
    const [opus, , , kimi] = rendered.overflow;
    expectGolden("consensus-overflow-model-opus", opus?.body ?? "");
    expectGolden("consensus-overflow-model-kimi", kimi?.body ?? "");
  });

  it("inline review body, with findings that could not be placed inline and some held back", () => {
    const [, , , closerDiscarded, , reviewReference] = referenceClusters();
    if (closerDiscarded === undefined || reviewReference === undefined) throw new Error("fixture");
    const body = renderInlineReviewBody({
      inlineCount: 4,
      unplaced: [
        { cluster: closerDiscarded, reason: "outside-diff" },
        { cluster: reviewReference, reason: "over-limit" },
      ],
      consensusUrl: "https://github.com/steve/mort/pull/412#issuecomment-3169990",
      heldBack: {
        counts: { off: 0, belowSeverity: 0, lone: 4, disputed: 0, overCap: 1 },
        policy: { minSeverity: "nit", maxInline: 30 },
      },
    });
    expectGolden("inline-review-body", body);
  });

  it("one inline comment", () => {
    const [, emptyCase] = referenceClusters();
    if (emptyCase === undefined) throw new Error("fixture");
    expectGolden("inline-comment", renderInlineComment(emptyCase));
  });

  it("check run output", () => {
    const output = renderCheckRunOutput(roundTwoConsensus(), { lenses: LENS_TITLES });
    expectGolden("check-run-summary", `# ${output.title}\n\n${output.summary}`);
    expectGolden("check-run-text", output.text);
  });

  it("invalid repository config notice", () => {
    const body = renderInvalidConfigNotice([
      { path: "lenses[2]", message: 'unknown lens "speed" (available: security, correctness)' },
      {
        path: "customLenses[0].prompt",
        message: "Too small: expected string to have >=20 characters",
      },
      { path: "", message: "providers is not allowed in a repository config" },
    ]);
    expectGolden("invalid-config-notice", body);
  });
});

describe("goldens of a cross-examined round (UPDATE_GOLDEN=1 rewrites them)", () => {
  it("consensus comment: a confirmed lone finding among the agreed ones, a disputed one apart", () => {
    const rendered = renderConsensusComment(crossExaminedConsensus(), { lenses: LENS_TITLES });
    expectGolden("consensus-cross-examined", rendered.body);
  });

  it("check run summary of the same round", () => {
    const output = renderCheckRunOutput(crossExaminedConsensus(), { lenses: LENS_TITLES });
    expectGolden("check-run-summary-cross-examined", `# ${output.title}\n\n${output.summary}`);
  });

  it("inline comment of a lone finding confirmed on challenge", () => {
    const confirmed = crossExaminedConsensus().clusters.find(
      (cluster) => cluster.fingerprint === "fp-closer-regex",
    );
    if (confirmed === undefined) throw new Error("fixture");
    expectGolden("inline-comment-confirmed", renderInlineComment(confirmed));
  });

  it("status board with each reviewer's cross-examination phase", () => {
    expectGolden("status-board-cross-examination", renderStatusBoard(crossExaminedStatus()));
  });
});
