import type { Consensus } from "../consensus/index.js";
import { bodyBudget, CHECK_RUN_OUTPUT_LIMIT, largestFitting } from "./body-limit.js";
import { consensusView } from "./consensus-view.js";
import { modelView } from "./model-view.js";
import { leavesGap } from "./not-reviewed-label.js";
import type { RenderOptions } from "./render-options.js";
import { defaultTemplateEngine } from "./template-engine.js";

export interface CheckRunOutput {
  /** The verdict. */
  title: string;
  /** The consensus tables. */
  summary: string;
  /** Each model's verdict, lens by lens. */
  text: string;
}

export interface CheckRunRenderOptions extends RenderOptions {
  /** Where each finding was shown (its inline comment), by cluster fingerprint. */
  findingUrls?: Readonly<Record<string, string>>;
}

/** The `output` of the completed `Gadfly` check run; summary and text each fit GitHub's limit. */
export function renderCheckRunOutput(
  consensus: Consensus,
  options: CheckRunRenderOptions = {},
): CheckRunOutput {
  const engine = options.engine ?? defaultTemplateEngine();
  const budget = bodyBudget(options.maxLength, CHECK_RUN_OUTPUT_LIMIT);
  const lenses = options.lenses === undefined ? {} : { lenses: options.lenses };
  const summary = (rowLimit: number): string =>
    engine.render(
      "check-run-summary",
      consensusView(consensus, {
        ...lenses,
        ...(options.findingUrls === undefined ? {} : { findingUrls: options.findingUrls }),
        detail: "overflow",
        rowLimit,
        // The check's summary is the table at a glance; the details and hand-offs are on the PR.
        detailLimit: 0,
        meta: null,
      }),
    );
  const text = (modelLimit: number): string =>
    engine.render("check-run-text", {
      models: consensus.models.slice(0, modelLimit).map((model) => modelView(model, lenses)),
      modelsOmitted: Math.max(0, consensus.models.length - modelLimit),
    });
  const fits = (body: string): boolean => body.length <= budget;
  const rows = Math.max(consensus.clusters.length, consensus.models.length);
  const models = consensus.models.length;
  const output = {
    title: checkTitle(consensus),
    summary: fits(summary(rows))
      ? summary(rows)
      : summary(largestFitting(rows, (n) => fits(summary(n)))),
    text: fits(text(models)) ? text(models) : text(largestFitting(models, (n) => fits(text(n)))),
  };
  if (!fits(output.summary) || !fits(output.text)) {
    throw new Error(`check run output cannot fit ${budget} characters`);
  }
  return output;
}

/**
 * The verdict, unless the review is not a whole one: then the title says so first. A
 * skipped lens (its model kept from the change) is not a failure, but not a review either.
 */
function checkTitle(consensus: Consensus): string {
  // A light step is by design, not a gap: said after the verdict, not as partial.
  const step = consensus.budget?.step === undefined ? "" : ` — ${consensus.budget.step}`;
  // A file no model reviewed makes every verdict partial (but one the repository ignores:
  // leavesGap); the summary names each one.
  const files = (consensus.notReviewed ?? []).filter(leavesGap).length;
  const unreviewed = files === 0 ? [] : [`${files} file${files === 1 ? "" : "s"} not reviewed`];
  if (consensus.budget?.stepEmpty === true) {
    return unreviewed.length === 0
      ? `${consensus.verdict}${step}`
      : `${consensus.verdict} (partial: ${unreviewed[0]})${step}`;
  }
  if (consensus.modelCount === 0) {
    // A daily cap already reached when the round began: nothing ran, and the title says why.
    const reached = consensus.budget?.reached;
    return reached === undefined
      ? "No model completed the review"
      : `No model completed the review (partial: budget reached — ${reached})`;
  }
  const lenses = consensus.models.flatMap((model) => model.lenses);
  const skipped = lenses.filter((lens) => lens.outcome === "skipped").length;
  const incomplete = lenses.filter(
    (lens) => lens.outcome !== "done" && lens.outcome !== "skipped",
  ).length;
  const gaps = [
    ...(incomplete === 0
      ? []
      : [`${incomplete} of ${lenses.length} lens reviews did not complete`]),
    ...(skipped === 0 ? [] : [`${skipped} of ${lenses.length} lens reviews skipped`]),
  ];
  // The budget's mark comes first: it is why the rest is missing.
  const budget = [
    ...(consensus.budget?.reached === undefined
      ? []
      : [`budget reached — ${consensus.budget.reached}`]),
    ...(consensus.budget?.downshift === undefined ? [] : [consensus.budget.downshift]),
  ];
  const parts = [...budget, ...(gaps.length === 0 ? [] : [gaps.join(", ")]), ...unreviewed];
  return parts.length === 0
    ? `${consensus.verdict}${step}`
    : `${consensus.verdict} (partial: ${parts.join("; ")})${step}`;
}
