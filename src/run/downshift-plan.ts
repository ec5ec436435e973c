import type { ReviewPlan } from "../config/index.js";
import type { ChangeSet } from "./change-set.js";
import { filesUnderReview } from "./files-under-review.js";

const count = new Intl.NumberFormat("en-US");

/**
 * The plan a change gets under the operator's `budget.downshift`: above its size (lines or files
 * of the change under review — an incremental round's step), only the configured lenses and
 * models of the plan run, and `note` says so in words for the board, the consensus and the
 * check. Below the size, or without a downshift, the plan is unchanged and `note` is null.
 */
export function downshiftPlan(
  plan: ReviewPlan,
  change: ChangeSet,
): { plan: ReviewPlan; note: string | null } {
  const policy = plan.budget?.downshift;
  if (policy === undefined) return { plan, note: null };
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
  if (size.length === 0) return { plan, note: null };
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
