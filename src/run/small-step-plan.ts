import { type ReviewPlan, SmallStepConfig } from "../config/index.js";
import { assignReviewers } from "./assign-reviewers.js";
import type { ChangeSet } from "./change-set.js";
import { filesUnderReview } from "./files-under-review.js";

const count = new Intl.NumberFormat("en-US");
const DEFAULTS = SmallStepConfig.parse({});

/** The lens a small step never leaves to one model: one weak or manipulated model misses it. */
const SECURITY_LENS = "security";
const SECURITY_REVIEWERS = 2;

/**
 * Whether a round may light its step: `seed` deals the reviewers (smallStepSeed); `refused`
 * says why it may not (a fork PR, an author without write access, no secret to deal with).
 */
export type SmallStepGate = { seed: Uint8Array } | { refused: string };

/**
 * How much of the plan an incremental round's step needs. `whole`: every model on every lens
 * (a full round, a step above `review.smallStep.maxChangedLines`, or the setting off). `empty`:
 * nothing the repository reviews changed since `since` (a merge of the base branch, a push of
 * ignored files), so no lens runs and the open findings are carried. `small`: each lens is
 * reviewed by the models `assignment` gives it (assignReviewers, the security lens by at least
 * two), and `note` says so. Without a gate that allows it, a step is never small.
 */
export type StepPlan =
  | { kind: "whole" }
  | { kind: "empty"; since: string }
  | {
      kind: "small";
      since: string;
      lines: number;
      /** Lens → the model ids that review it. */
      assignment: Map<string, string[]>;
      note: string;
    };

/**
 * The step plan of a change under a plan (after any downshift). Models the round keeps from the
 * change (`skip`) are not assigned a lens: their lenses end skipped as in any round, and every
 * lens still gets its reviewers from the rest.
 */
export function smallStepPlan(
  plan: ReviewPlan,
  change: ChangeSet,
  gate: SmallStepGate | undefined,
  skip?: ReadonlyMap<string, string>,
): StepPlan {
  if (change.scope?.kind !== "incremental") return { kind: "whole" };
  const since = change.scope.since;
  const files = filesUnderReview(change);
  if (files.length === 0) return { kind: "empty", since };
  const settings = plan.review.smallStep ?? DEFAULTS;
  const lines = files.reduce((total, file) => total + file.additions + file.deletions, 0);
  if (settings.maxChangedLines === 0 || lines > settings.maxChangedLines) return { kind: "whole" };
  if (gate === undefined || !("seed" in gate)) return { kind: "whole" };
  const models = plan.models.map((model) => model.id).filter((id) => skip?.has(id) !== true);
  if (settings.reviewersPerLens >= models.length) return { kind: "whole" };
  const perLens = settings.reviewersPerLens;
  return {
    kind: "small",
    since,
    lines,
    assignment: assignReviewers(
      models,
      plan.lenses,
      perLens,
      gate.seed,
      new Map([[SECURITY_LENS, SECURITY_REVIEWERS]]),
    ),
    note: `small step (${count.format(lines)} line${lines === 1 ? "" : "s"} since ${since.slice(0, 7)}): ${perLens === 1 ? "one model" : `${perLens} models`} per lens${security(plan, perLens, models.length)}`,
  };
}

/** What the note adds when the security lens gets more reviewers than the others. */
function security(plan: ReviewPlan, perLens: number, models: number): string {
  const reviewers = Math.min(SECURITY_REVIEWERS, models);
  return plan.lenses.includes(SECURITY_LENS) && reviewers > perLens
    ? `, ${reviewers} on ${SECURITY_LENS}`
    : "";
}

/** What the board and the consensus say of an empty step, once the carried findings are known. */
export function emptyStepNote(since: string, carried: number): string {
  return `nothing to review since ${since.slice(0, 7)}: ${count.format(carried)} open finding${carried === 1 ? "" : "s"} carried`;
}
