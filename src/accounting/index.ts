/**
 * Accounting: what model work cost — tokens (cached included), model time and an estimated
 * cost from the operator's price table — per model, lens, phase and round; and the budget's caps.
 */

export { type BudgetNote, type BudgetSpend, budgetReached } from "./budget-reached.js";
export { READER_SHARE_SPENT, readerShareReached } from "./reader-share-reached.js";
export {
  type ChallengeSpend,
  type ModelUsage,
  type RoundUsage,
  roundUsage,
  USAGE_PHASES,
  type UsagePhase,
} from "./round-usage.js";
export { addUsageFigures, noUsage, type UsageFigures, usageFigures } from "./usage-figures.js";
