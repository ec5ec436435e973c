import { describe, expect, it } from "vitest";
import type { Consensus } from "../../src/consensus/consensus.js";
import { renderCheckRunOutput } from "../../src/render/render-check-run-output.js";
import { renderConsensusComment } from "../../src/render/render-consensus-comment.js";
import { LENS_TITLES } from "./helpers/lens-titles.js";
import { referenceConsensus } from "./reference-page.js";

function everyLensFailed(): Consensus {
  const consensus = referenceConsensus();
  return {
    ...consensus,
    modelCount: 0,
    verdict: "No material issues found",
    clusters: [],
    models: consensus.models.map((model) => ({
      ...model,
      verdict: null,
      lenses: model.lenses.map((lens) => ({
        ...lens,
        outcome: "failed" as const,
        verdict: null,
        failure: "provider ollama-cloud: HTTP 503",
      })),
    })),
  };
}

describe("an incomplete review is never presented as a clean one", () => {
  it("says no model completed instead of a verdict", () => {
    const { body } = renderConsensusComment(everyLensFailed(), { lenses: LENS_TITLES });
    // The summary, above the per-model detail (whose lens texts are the models' own words).
    const summary = body.slice(0, body.indexOf("<details>"));
    expect(summary).not.toContain("No material issues found");
    expect(summary).toContain("no model completed its review");
  });

  it("flags a partial review above the findings", () => {
    const consensus = referenceConsensus();
    const [first, ...rest] = consensus.models;
    if (first === undefined) throw new Error("no model");
    const partial: Consensus = {
      ...consensus,
      models: [
        {
          ...first,
          lenses: first.lenses.map((lens, index) =>
            index === 0
              ? {
                  ...lens,
                  outcome: "failed" as const,
                  verdict: null,
                  failure: "timed out after 900 s",
                }
              : lens,
          ),
        },
        ...rest,
      ],
    };
    const { body } = renderConsensusComment(partial, { lenses: LENS_TITLES });
    expect(body).toMatch(/⚠️ Partial review: 1 of \d+ lens reviews did not complete/);
    expect(
      renderConsensusComment(referenceConsensus(), { lenses: LENS_TITLES }).body,
    ).not.toContain("Partial review");
  });
});

describe("the check run of an incomplete review", () => {
  it("titles it as such", () => {
    expect(renderCheckRunOutput(everyLensFailed(), { lenses: LENS_TITLES }).title).toBe(
      "No model completed the review",
    );
    expect(renderCheckRunOutput(referenceConsensus(), { lenses: LENS_TITLES }).title).toBe(
      "Minor issues",
    );
  });
});
