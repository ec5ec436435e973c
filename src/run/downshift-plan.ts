import type { DownshiftConfig, ReviewPlan } from "../config/index.js";
import type { ChangeSet } from "./change-set.js";
import { filesUnderReview } from "./files-under-review.js";

const count = new Intl.NumberFormat("en-US");

/** Where a downshift comes from, as the board names it. */
export type DownshiftSource = "budget.downshift" | "filters.maxSize";

export interface DownshiftedPlan {
  plan: ReviewPlan;
  /** In words for the board, the consensus and the check; null when the plan is unchanged. */
  note: string | null;
  /** The settings that narrowed the plan, in the order they applied. */
  by: DownshiftSource[];
}

/**
 * The plan a change gets under the operator's `budget.downshift`, then under the repository's
 * own (`filters.maxSize` with `over: downshift`), each applied when the change under review is
 * over its size (lines or files — an incremental round's step): only the configured lenses and
 * models run, and `note` says so. A repository's downshift can only narrow what the operator's
 * left. Below every size, or without a downshift, the plan is unchanged and `note` is null.
 */
export function downshiftPlan(plan: ReviewPlan, change: ChangeSet): DownshiftedPlan {
  let current = plan;
  const notes: string[] = [];
  const by: DownshiftSource[] = [];
  for (const [source, policy] of [
    ["budget.downshift", plan.budget?.downshift],
    ["filters.maxSize", plan.sizeDownshift],
  ] as const) {
    if (policy === undefined) continue;
    const narrowed = narrowFor(current, policy, change);
    if (narrowed === null) continue;
    current = narrowed.plan;
    notes.push(narrowed.note);
    by.push(source);
  }
  return { plan: current, note: notes.length === 0 ? null : notes.join("; then "), by };
}

function narrowFor(
  plan: ReviewPlan,
  policy: DownshiftConfig,
  change: ChangeSet,
): { plan: ReviewPlan; note: string } | null {
  const files = filesUnderReview(change);
  const lines = files.reduce((total, file) => total + file.additions + file.deletions, 0);
  const size = [
    ...(policy.aboveChangedLines !== undefined && lines > policy.aboveChangedLines
      ? [`${count.format(lines)} lines`]
      : []),
    ...(policy.aboveFiles !== undefined && files.length > policy.aboveFiles
      ? [`${count.format(files.length)} files`]
      : []),
  ];
  if (size.length === 0) return null;
  const lenses =
    policy.lenses === undefined
      ? plan.lenses
      : plan.lenses.filter((lens) => policy.lenses?.includes(lens));
  const models =
    policy.models === undefined
      ? plan.models
      : plan.models.filter((model) => policy.models?.includes(model.id));
  const kept = [
    ...(policy.lenses === undefined ? [] : [lenses.join(", ")]),
    ...(policy.models === undefined ? [] : [models.map((model) => model.id).join(", ")]),
  ];
  // The repository chose none of the downshift's: nothing runs, and the words say why.
  const none = lenses.length === 0 ? "lens" : models.length === 0 ? "model" : null;
  return {
    plan: {
      ...plan,
      lenses,
      models,
      customLenses: plan.customLenses.filter((lens) => lenses.includes(lens.id)),
    },
    note:
      none === null
        ? `large change (${size.join(", ")}): ${kept.join(" on ")} only`
        : `large change (${size.join(", ")}): no ${none} of this round is among the downshift's, so none runs`,
  };
}
