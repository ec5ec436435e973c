import type { RoundUsage, UsageFigures, UsagePhase } from "../accounting/index.js";
import type { JsonUsage, JsonUsageFigures } from "./schema.js";

export interface UsageReportOptions {
  /**
   * False for a replayed run: its durations are the replay's, not model time, and leaving them
   * out keeps a replay's report byte-identical to the recorded one.
   */
  timed: boolean;
  /** Model ids the config prices. */
  priced: ReadonlySet<string>;
}

const TIMED_UNPRICED: UsageReportOptions = { timed: true, priced: new Set() };

/** A round's usage as the JSON report and SARIF's property bag carry it. */
export function usageReport(
  usage: RoundUsage,
  options: UsageReportOptions = TIMED_UNPRICED,
): JsonUsage {
  const figures = (value: UsageFigures): JsonUsageFigures => ({
    inputTokens: value.inputTokens,
    cachedInputTokens: value.cachedInputTokens,
    cacheWriteTokens: value.cacheWriteTokens,
    outputTokens: value.outputTokens,
    durationMs: options.timed ? Math.round(value.durationMs) : null,
    // Rounded to a millionth of a dollar: sums of float products would print noise digits.
    costUsd: value.costUsd === null ? null : Math.round(value.costUsd * 1e6) / 1e6,
  });
  const phases = (value: Record<UsagePhase, UsageFigures>) => ({
    review: figures(value.review),
    verify: figures(value.verify),
    crossExamination: figures(value["cross-examination"]),
  });
  return {
    models: usage.models.map((model) => ({
      model: model.model,
      priced: options.priced.has(model.model),
      phases: phases(model.phases),
      total: figures(model.total),
    })),
    phases: phases(usage.phases),
    total: figures(usage.total),
  };
}
