import fc from "fast-check";
import type { Cluster } from "../../src/consensus/cluster.js";
import type { Consensus, ModelSummary } from "../../src/consensus/consensus.js";
import type { Finding } from "../../src/consensus/finding.js";
import type { Severity } from "../../src/findings/schema.js";
import { cluster } from "../builders/consensus.js";
import { pageLensReport } from "./reference-page.js";

/**
 * Everything that has broken a comment somewhere, except code fences (tested on
 * their own): a backtick always comes with a letter, so no run of three forms.
 */
const NASTY = [
  "<details>",
  "</details>",
  "<!-- gadfly-consensus -->",
  "-->",
  "<summary>",
  "@octocat ",
  "|",
  "`x",
  "\n",
  "\n\n",
  "é",
  "😀",
  "\u202E",
  "<br>x",
  "#123 ",
  "**b**",
  "- item\n",
  "| a | b |\n|---|---|\n",
  "x".repeat(300),
  "&#64;hubot ",
];

export const nastyText = (pieces: number[], length: number): string => {
  if (pieces.length === 0 || length === 0) return "";
  const unit = pieces.map((index) => NASTY[index % NASTY.length]).join("");
  return unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
};

export interface ConsensusShape {
  modelCount: number;
  lensCount: number;
  /** Indexes into NASTY: the text every lens, title and path is made of. */
  pieces: number[];
  lensLength: number;
  clusterCount: number;
  titleLength: number;
  withComparison: boolean;
}

/** Consensuses of every size, from a handful of findings to thousands and 50,000-character lenses. */
export const consensusArbitrary = fc
  .record({
    modelCount: fc.integer({ min: 1, max: 6 }),
    lensCount: fc.integer({ min: 1, max: 5 }),
    pieces: fc.array(fc.nat(NASTY.length - 1), { minLength: 1, maxLength: 12 }),
    lensLength: fc.oneof(fc.integer({ min: 0, max: 2_000 }), fc.integer({ min: 0, max: 50_000 })),
    clusterCount: fc.oneof(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 1_500 })),
    titleLength: fc.integer({ min: 1, max: 600 }),
    withComparison: fc.boolean(),
  })
  .map((shape) => buildConsensus(shape));

export function buildConsensus(shape: ConsensusShape): Consensus {
  const ids = Array.from(
    { length: shape.modelCount },
    (_, i) => `model-${i}:${"z".repeat(i * 40)}`,
  );
  const lenses = Array.from({ length: shape.lensCount }, (_, i) => `lens-${i}`);
  const models: ModelSummary[] = ids.map((model, m) => ({
    model,
    provider: `provider-${m}`,
    verdict: "Minor issues",
    lenses: lenses.map((lens, l) =>
      pageLensReport(model, `provider-${m}`, lens, {
        text: nastyText(shape.pieces, Math.max(0, shape.lensLength - 997 * (m + l))),
        outcome: l === 1 ? "failed" : "done",
        failure: l === 1 ? nastyText(shape.pieces, 900) : null,
      }),
    ),
  }));
  const severities: Severity[] = ["high", "medium", "low", "nit"];
  const clusters: Cluster[] = Array.from({ length: shape.clusterCount }, (_, c) => {
    const finding: Finding = {
      model: ids[c % ids.length] ?? "model-0",
      lens: lenses[c % lenses.length] ?? "lens-0",
      file: `src/${nastyText(shape.pieces, 40)}/${c}.ts`,
      line: c + 1,
      endLine: c + 3,
      severity: severities[c % 4] ?? "low",
      confidence: "high",
      title: nastyText(shape.pieces, shape.titleLength),
      body: nastyText(shape.pieces, 3_000),
    };
    return cluster(`fp-${c}`, [finding], ids.slice(0, 1 + (c % ids.length)));
  });
  return {
    models,
    modelCount: ids.length,
    verdict: "Significant issues",
    clusters,
    comparison: shape.withComparison
      ? {
          round: 2,
          previousHeadSha: "abcdef0123",
          fresh: clusters.slice(0, 10),
          stillOpen: clusters.slice(10),
          fixed: clusters.map((c) => ({ ...c.representative, fingerprint: c.fingerprint })),
        }
      : null,
  };
}
