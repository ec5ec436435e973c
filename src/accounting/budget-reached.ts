import type { BudgetConfig } from "../config/index.js";
import type { UsageFigures } from "./usage-figures.js";

/** Why a round ran less than its plan, in words the board, the consensus and the check show. */
export interface BudgetNote {
  /** The cap that kept lenses from starting: "round cap of 200,000 tokens". */
  reached?: string;
  /** Set with `reached` when the cross-examination was not run for it. */
  crossExaminationSkipped?: boolean;
  /** The downshift a large change got: "large change (1,234 lines): security, correctness only". */
  downshift?: string;
  /** The settings that downshifted it, as the board names them: "budget.downshift, filters.maxSize". */
  downshiftBy?: string;
  /**
   * An incremental round's light step, in words: "small step (10 lines since abc1234): one model
   * per lens", or "nothing to review since abc1234: 3 open findings carried".
   */
  step?: string;
  /** Set with `step` when nothing reviewable changed: no lens ran, and that is not a failure. */
  stepEmpty?: boolean;
}

/** What has been spent, as a cap sees it: this round's, and the installation's today (this round's included). */
export interface BudgetSpend {
  round: UsageFigures;
  /** Absent when no daily figure is known (the CLI): daily caps are not checked then. */
  today?: UsageFigures;
}

const count = new Intl.NumberFormat("en-US");
const tokenCount = (tokens: number) => `${count.format(tokens)} token${tokens === 1 ? "" : "s"}`;

/**
 * The first cap the spend has reached, in words; null while every cap has room. Tokens are
 * input (cached included) plus output. A cost the figures cannot give (a model without a price)
 * does not reach the cost cap: the config refuses a cost cap without every model priced.
 */
export function budgetReached(
  budget: Pick<BudgetConfig, "roundTokens" | "dailyTokens" | "dailyCostUsd">,
  spend: BudgetSpend,
): string | null {
  const tokens = (figures: UsageFigures) => figures.inputTokens + figures.outputTokens;
  if (budget.roundTokens !== undefined && tokens(spend.round) >= budget.roundTokens) {
    return `round cap of ${tokenCount(budget.roundTokens)}`;
  }
  const today = spend.today;
  if (today === undefined) return null;
  if (budget.dailyTokens !== undefined && tokens(today) >= budget.dailyTokens) {
    return `daily cap of ${tokenCount(budget.dailyTokens)}`;
  }
  if (
    budget.dailyCostUsd !== undefined &&
    today.costUsd !== null &&
    today.costUsd >= budget.dailyCostUsd
  ) {
    return `daily cap of $${budget.dailyCostUsd.toFixed(2)}`;
  }
  return null;
}
