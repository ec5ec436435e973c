import type { BudgetConfig } from "../config/index.js";
import { budgetReached } from "./budget-reached.js";
import type { UsageFigures } from "./usage-figures.js";

/** What the board, the check and the waiting board say when readers' share is spent. */
export const READER_SHARE_SPENT = "readers' share of today's budget is spent";

/**
 * Whether readers' rounds together have spent their share of the daily caps today, in words
 * (the share's own cap named after it); null while there is room, or without a daily cap.
 * `readersToday` is every reader round's spend since 00:00 UTC, the asking round's included.
 */
export function readerShareReached(
  budget: Pick<BudgetConfig, "dailyTokens" | "dailyCostUsd">,
  share: number,
  readersToday: UsageFigures,
): string | null {
  const scaled = {
    ...(budget.dailyTokens === undefined
      ? {}
      : { dailyTokens: Math.max(1, Math.floor(budget.dailyTokens * share)) }),
    ...(budget.dailyCostUsd === undefined ? {} : { dailyCostUsd: budget.dailyCostUsd * share }),
  };
  if (scaled.dailyTokens === undefined && scaled.dailyCostUsd === undefined) return null;
  const none = { ...readersToday, inputTokens: 0, outputTokens: 0, costUsd: 0 };
  const cap = budgetReached(scaled, { round: none, today: readersToday });
  if (cap === null) return null;
  return `${READER_SHARE_SPENT} (${Math.round(share * 100)}% of the daily caps: ${cap.replace(/^daily cap of /, "")})`;
}
