import {
  addUsageFigures,
  budgetReached,
  readerShareReached,
  roundUsage,
  type UsageFigures,
} from "../accounting/index.js";
import type { LensReport } from "../agent/index.js";
import type { ModelConfig, ReviewPlan } from "../config/index.js";
import { failedReport } from "./review-lens-chain.js";
import type { RoundBoard } from "./round-board.js";

/** How a lens skipped for the budget says so, the cap's words after it. */
const BUDGET_SKIP = "budget reached — ";

/**
 * A reader's round (its PR's author cannot write): with the app's `readers.dailyShare`, the
 * fraction of the daily caps every reader round of the installation may spend together today,
 * and what the others spent (this round's own is added as it goes).
 */
export interface ReaderShare {
  share: number;
  othersToday: () => Promise<UsageFigures>;
}

/**
 * The plan's budget caps, checked as each lens takes its slot: lenses already running finish and
 * only those not yet started are skipped; once a cap is reached it stays reached for the round.
 */
export class RoundBudgetGate {
  private reached: string | null = null;

  constructor(
    private readonly plan: ReviewPlan,
    private readonly board: RoundBoard,
    /** The installation's spend today in its other rounds; absent (the CLI): the round cap only. */
    private readonly dailySpend: (() => Promise<UsageFigures>) | undefined,
    /** Set for a reader's round: it also stops at readers' share of the daily caps. */
    private readonly readerShare?: ReaderShare,
  ) {}

  /** A round resumed after a restart keeps the cap its lenses were skipped for. */
  restore(finished: Iterable<LensReport>): boolean {
    for (const report of finished) {
      if (report.outcome === "skipped" && report.failure?.startsWith(BUDGET_SKIP) === true) {
        this.markReached(report.failure.slice(BUDGET_SKIP.length));
        return true;
      }
    }
    return false;
  }

  /** The lens's skipped report when a cap has been reached; undefined lets it start. */
  async skipIfReached(model: ModelConfig, lens: string): Promise<LensReport | undefined> {
    const cap = await this.capReached();
    return cap === null ? undefined : skippedReport(model, lens, `${BUDGET_SKIP}${cap}`);
  }

  private async capReached(): Promise<string | null> {
    const budget = this.plan.budget;
    if (this.reached !== null || budget === undefined) return this.reached;
    const round = roundUsage({ reports: this.board.ended, pricing: this.plan.pricing }).total;
    const daily = budget.dailyTokens !== undefined || budget.dailyCostUsd !== undefined;
    const today =
      daily && this.dailySpend !== undefined
        ? addUsageFigures(await this.dailySpend(), round)
        : undefined;
    const cap =
      budgetReached(budget, { round, ...(today === undefined ? {} : { today }) }) ??
      (daily ? await this.readerShareReached(round) : null);
    if (cap !== null) this.markReached(cap);
    return cap;
  }

  /** A reader's round over readers' share: a writer's `@gadfly review` still has the rest. */
  private async readerShareReached(round: UsageFigures): Promise<string | null> {
    const { readerShare, plan } = this;
    if (readerShare === undefined || plan.budget === undefined) return null;
    const readers = addUsageFigures(await readerShare.othersToday(), round);
    const reached = readerShareReached(plan.budget, readerShare.share, readers);
    return reached === null ? null : `${reached}; a maintainer can run \`@gadfly review\``;
  }

  private markReached(cap: string): void {
    this.reached = cap;
    // What follows the lenses is not started either (review-change.ts): the board says so.
    this.board.budgetReached(cap);
  }
}

/** A lens never started: no text, no findings, no verdict; the reason says why. */
export function skippedReport(model: ModelConfig, lens: string, reason: string): LensReport {
  return { ...failedReport(model, lens, reason), outcome: "skipped" };
}
