import type { RoundUsage, UsageFigures } from "../accounting/index.js";
import { formatCost, formatDuration, formatTokens } from "./format.js";

/** `timed: false` leaves the time out: a replayed run's durations are not model time. */
export interface UsageLineOptions {
  timed?: boolean;
}

/**
 * `52.1k tokens in (12k cached) · 3.4k out · 1 min 12 s · ≈ $0.21`: what some model work spent.
 * The cost is left out without a price for every model counted in it (tokens still say it).
 */
export function usageLine(usage: UsageFigures, options: UsageLineOptions = {}): string {
  return [
    ...tokenParts(usage),
    ...(options.timed === false ? [] : [formatDuration(usage.durationMs)]),
    ...(usage.costUsd === null ? [] : [`≈ ${formatCost(usage.costUsd)}`]),
  ].join(" · ");
}

/**
 * A round's spend in one line: the totals (time is model time, summed over sessions that ran
 * in parallel), then the cost of each phase that spent anything when every cost is known.
 */
export function roundUsageLine(usage: RoundUsage, options: UsageLineOptions = {}): string {
  const { total } = usage;
  const parts = [
    ...tokenParts(total),
    ...(options.timed === false ? [] : [`${formatDuration(total.durationMs)} of model time`]),
  ];
  if (total.costUsd === null)
    return `${parts.join(" · ")} · cost not estimated (no price for some models)`;
  const phases = Object.entries(usage.phases)
    .filter(([, figures]) => figures.inputTokens + figures.outputTokens > 0)
    .map(([phase, figures]) => `${phase} ${formatCost(figures.costUsd ?? 0)}`);
  const split = phases.length > 1 ? ` (${phases.join(" · ")})` : "";
  return `${parts.join(" · ")} · ≈ ${formatCost(total.costUsd)}${split}`;
}

/** `52.1k tokens in (12k cached)`, `3.4k out`. */
function tokenParts(usage: UsageFigures): string[] {
  const cached =
    usage.cachedInputTokens > 0 ? ` (${formatTokens(usage.cachedInputTokens)} cached)` : "";
  return [
    `${formatTokens(usage.inputTokens)} tokens in${cached}`,
    `${formatTokens(usage.outputTokens)} out`,
  ];
}
