import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GITHUB_BODY_LIMIT } from "../../src/render/body-limit.js";
import { renderCheckRunOutput } from "../../src/render/render-check-run-output.js";
import { renderConsensusComment } from "../../src/render/render-consensus-comment.js";
import { LENS_TITLES } from "./helpers/lens-titles.js";
import { buildConsensus, consensusArbitrary } from "./large-consensus.js";

const FOOTER =
  "<sub>Automated adversarial review by Gadfly — consensus across the model swarm. Advisory only — does not block merge.</sub>";

function expectIntact(body: string, marker: string, footer: RegExp): void {
  expect(body.length).toBeLessThanOrEqual(GITHUB_BODY_LIMIT);
  expect(body.startsWith(`${marker}\n`)).toBe(true);
  expect(body.trimEnd()).toMatch(footer);
  // Only our own marker and meta lines are HTML comments; lens text opened none.
  expect(body.match(/<!--/g)?.length ?? 0).toBeLessThanOrEqual(2);
  // Each of our <details> opens and closes at a line start; none came from the text.
  expect(body.match(/^<details/gm)?.length).toBe(body.match(/^<\/details>/gm)?.length);
}

describe("every body fits GitHub's limit, markers and footers intact", () => {
  // Twelve consensuses of up to thousands of findings, each searched for the most rows that fit:
  // seconds of work on a loaded machine, so its own time-out, not a bound on speed.
  it("for random large consensuses, under GitHub's limit or a smaller one", {
    timeout: 90_000,
  }, () => {
    const maxLength = fc.option(fc.integer({ min: 3_000, max: GITHUB_BODY_LIMIT }), {
      nil: undefined,
    });
    fc.assert(
      fc.property(consensusArbitrary, maxLength, (consensus, limit) => {
        const rendered = renderConsensusComment(consensus, {
          lenses: LENS_TITLES,
          meta: { fingerprints: consensus.clusters.map((c) => c.fingerprint) },
          ...(limit === undefined ? {} : { maxLength: limit }),
        });
        expect(rendered.body.length).toBeLessThanOrEqual(limit ?? GITHUB_BODY_LIMIT);
        for (const overflow of rendered.overflow) {
          expect(overflow.body.length).toBeLessThanOrEqual(limit ?? GITHUB_BODY_LIMIT);
        }
        expectIntact(
          rendered.body,
          "<!-- gadfly-consensus -->",
          /<sub>Automated adversarial review[^\n]*<\/sub>$/,
        );
        expect(rendered.body.trimEnd().endsWith(FOOTER)).toBe(true);
        for (const overflow of rendered.overflow) {
          expectIntact(
            overflow.body,
            overflow.marker,
            /Advisory only — does not block merge\.<\/sub>$/,
          );
        }
        const output = renderCheckRunOutput(consensus, { lenses: LENS_TITLES });
        expect(output.summary.length).toBeLessThan(65_536);
        expect(output.text.length).toBeLessThan(65_536);
      }),
      { numRuns: 12 },
    );
  });

  it("for one huge consensus: six models whose every lens wrote 200,000 characters", () => {
    const consensus = buildConsensus({
      modelCount: 6,
      lensCount: 5,
      pieces: [0, 2, 3, 8, 18],
      lensLength: 200_000,
      clusterCount: 3_000,
      titleLength: 400,
      withComparison: true,
    });
    const rendered = renderConsensusComment(consensus, { lenses: LENS_TITLES });
    expect(rendered.overflow).toHaveLength(6);
    expectIntact(rendered.body, "<!-- gadfly-consensus -->", /does not block merge\.<\/sub>$/);
    expect(rendered.body).toMatch(
      /… and [\d,]+ more single-model findings, not shown: comment size limit\./,
    );
    for (const overflow of rendered.overflow) {
      expectIntact(overflow.body, overflow.marker, /does not block merge\.<\/sub>$/);
      expect(overflow.body).toMatch(/… truncated \([\d,]+ characters omitted\)/);
    }
  });
});
