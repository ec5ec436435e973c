import { roundUsage } from "../accounting/index.js";
import type { LensEvent, LensReport } from "../agent/index.js";
import type { ReviewPlan } from "../config/index.js";
import type { Redactor } from "../llm/index.js";
import type { Clock } from "../time/index.js";
import type { RoundStatus } from "./round-status.js";
import { applyLensEvent } from "./track-round-status.js";
import { withReviewerUsage } from "./with-reviewer-usage.js";

/**
 * A round's live status as its lenses end: every lens event folded in (failure reasons redacted
 * first, since they can quote a provider's answer and reach the board before the lens's redacted
 * report does), the per-model spend of every ended lens, and each change handed to `onStatus`.
 */
export class RoundBoard {
  private current: RoundStatus;
  /** Every ended lens's report, for the board's per-model spend and the budget's caps. */
  readonly ended: LensReport[] = [];

  constructor(
    initial: RoundStatus,
    private readonly plan: ReviewPlan,
    private readonly clock: Clock,
    private readonly redact: Redactor,
    private readonly onStatus: ((status: RoundStatus) => void) | undefined,
  ) {
    this.current = initial;
  }

  get status(): RoundStatus {
    return this.current;
  }

  publish(): void {
    this.onStatus?.(this.current);
  }

  /** A lens event as it happens: on the board at once. */
  readonly event = (event: LensEvent): void => {
    this.current = applyLensEvent(
      this.current,
      "reason" in event ? { ...event, reason: this.redact(event.reason) } : event,
    );
    this.publish();
  };

  /** A lens that ended: its spend counted (before its slot is freed, for the next lens's check). */
  countUsage(report: LensReport): void {
    this.ended.push(report);
    this.current = withReviewerUsage(
      this.current,
      roundUsage({ reports: this.ended, pricing: this.plan.pricing }),
    );
  }

  /** A lens that ended before the round began (resumed, or skipped): folded in without a publish. */
  foldEnded(report: LensReport): void {
    // A resumed lens shows the hops it made before the restart.
    for (const hop of report.failovers ?? []) {
      const source = { model: report.model, provider: report.provider, lens: report.lens };
      this.current = applyLensEvent(this.current, {
        ...source,
        at: this.clock.now(),
        type: "failover",
        ...hop,
      });
    }
    this.current = applyLensEvent(this.current, reportEvent(report, this.clock.now()));
    this.countUsage(report);
  }

  /** A lens the round ran, ended: on the board at once. */
  lensEnded(report: LensReport): void {
    this.event(reportEvent(report, this.clock.now()));
  }

  /** The board's budget line: a cap reached (and, if so, cross-examination not started). */
  budgetReached(cap: string): void {
    const skipsMore = this.plan.crossExamination?.enabled === true;
    this.current = {
      ...this.current,
      budget: {
        ...this.current.budget,
        reached: cap,
        ...(skipsMore ? { crossExaminationSkipped: true } : {}),
      },
    };
  }

  finish(): RoundStatus {
    this.current = { ...this.current, finished: true, updatedAt: new Date(this.clock.now()) };
    this.publish();
    return this.current;
  }
}

export function reportEvent(report: LensReport, at: number): LensEvent {
  const source = { model: report.model, provider: report.provider, lens: report.lens, at };
  if (report.outcome === "done" && report.verdict !== null) {
    return {
      ...source,
      type: "done",
      verdict: report.verdict,
      findings: report.findings.length,
      dropped: report.dropped.length,
    };
  }
  if (report.outcome === "cancelled")
    return { ...source, type: "cancelled", reason: report.failure ?? "cancelled" };
  if (report.outcome === "skipped")
    return { ...source, type: "skipped", reason: report.failure ?? "skipped" };
  return { ...source, type: "failed", reason: report.failure ?? "failed" };
}
