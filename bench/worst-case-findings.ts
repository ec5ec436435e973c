import type { Finding } from "../src/consensus/finding.js";
import { renderLensAnswer } from "../src/findings/findings-block.js";
import { MAX_FINDINGS_PER_LENS } from "../src/findings/parse.js";
import type { LensFinding, Severity } from "../src/findings/schema.js";

/*
 * The worst case the finding limit lets through: every finding of every model at one line of
 * one file, where every pair is compared. The shapes are built to hurt: "bridged" is two
 * groups (two models each) that each pair of findings links by a shared identifier, so every
 * one of those edges asks whether the two big groups merge, and the answer is always no; before
 * the group statistics were kept incrementally, each such question re-summed every cross pair
 * (cubic: 2,000 findings at one place blocked the event loop for 9.5 s).
 * Shared by the worst-case bench (which times them) and the clustering tests (which check what
 * they cluster into).
 */

export const WORST_CASE_MODELS = ["opus", "kimi", "glm", "sonnet"];
const LENSES = 5;

/** 4 models × 50 findings: the bound the finding limit sets, one lens each. */
export const ONE_LENS_EACH = WORST_CASE_MODELS.length * MAX_FINDINGS_PER_LENS;
/** 4 models × 5 lenses × 50: everything the limit lets through with the default lenses. */
export const EVERY_LENS = ONE_LENS_EACH * LENSES;
/** 4 models × 15 lenses (5 default, 10 custom) × 50. */
export const OVER_BUDGET = ONE_LENS_EACH * 15;

function atOneLine(index: number, model: string, title: string, body: string): Finding {
  return {
    file: "src/app.ts",
    line: 10,
    endLine: 10,
    severity: "medium",
    confidence: "medium",
    title,
    body,
    model,
    lens: `lens-${index % LENSES}`,
  };
}

const modelAt = (index: number) => WORST_CASE_MODELS[index % 4] ?? "opus";

export const WORST_CASE_SHAPES = {
  bridged: (count: number): Finding[] =>
    Array.from({ length: count }, (_, index) => {
      const side = index % 2;
      const model = WORST_CASE_MODELS[side * 2 + (Math.floor(index / 2) % 2)] ?? "opus";
      const title = side === 0 ? "Alpha beta problem" : "Gamma delta trouble";
      return atOneLine(index, model, title, `See \`uniqueIdent${Math.floor(index / 2)}\` here.`);
    }),
  "one claim": (count: number): Finding[] =>
    Array.from({ length: count }, (_, index) =>
      atOneLine(
        index,
        modelAt(index),
        "`parseConfig` can be null",
        "The value of `parseConfig` can be null and throws.",
      ),
    ),
  "all different": (count: number): Finding[] =>
    Array.from({ length: count }, (_, index) =>
      atOneLine(
        index,
        modelAt(index),
        `Issue zq${index} in \`handler${index % 12}\``,
        `Words yy${index}r and \`buffer${index % 7}\`.`,
      ),
    ),
};

/** The `index`-th finding of a flood: each on its own line of one of seven files. */
export function floodFinding(index: number, severity: Severity = "nit"): LensFinding {
  return {
    file: `src/f${index % 7}.ts`,
    line: 1 + index,
    endLine: 1 + index,
    severity,
    confidence: "medium",
    title: `Finding number ${index}`,
    body: `Detail of finding ${index}.`,
  };
}

/** One lens answer holding `count` findings (a third low, the rest nits): a model's flood. */
export function findingFloodAnswer(count: number): string {
  return renderLensAnswer(
    "Minor issues",
    Array.from({ length: count }, (_, index) =>
      floodFinding(index, index % 3 === 0 ? "low" : "nit"),
    ),
  );
}
