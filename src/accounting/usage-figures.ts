import type { ModelPrice } from "../config/index.js";
import type { Usage } from "../llm/index.js";

/** Tokens, time and estimated cost of some model work (a call, a lens, a phase, a round). */
export interface UsageFigures {
  /** Every input token, cache reads and writes included (as providers count them). */
  inputTokens: number;
  /** Of `inputTokens`, read from a prompt cache. */
  cachedInputTokens: number;
  /** Of `inputTokens`, written to a prompt cache. */
  cacheWriteTokens: number;
  outputTokens: number;
  durationMs: number;
  /** US dollars; null when some of the tokens belong to a model without a price. */
  costUsd: number | null;
}

export function noUsage(): UsageFigures {
  return {
    inputTokens: 0,
    cachedInputTokens: 0,
    cacheWriteTokens: 0,
    outputTokens: 0,
    durationMs: 0,
    costUsd: 0,
  };
}

/**
 * One model's usage as figures: the cost from its price, or null without one (tokens are
 * still counted). Cache reads and writes are billed at their own price when it is given.
 */
export function usageFigures(
  usage: Usage,
  durationMs: number,
  price: ModelPrice | undefined,
): UsageFigures {
  const cachedInputTokens = usage.cachedInputTokens ?? 0;
  const cacheWriteTokens = usage.cacheWriteTokens ?? 0;
  const figures = {
    inputTokens: usage.inputTokens,
    cachedInputTokens,
    cacheWriteTokens,
    outputTokens: usage.outputTokens,
    durationMs,
  };
  const spent = usage.inputTokens + usage.outputTokens > 0;
  if (price === undefined) return { ...figures, costUsd: spent ? null : 0 };
  const uncached = Math.max(0, usage.inputTokens - cachedInputTokens - cacheWriteTokens);
  const micro =
    uncached * price.input +
    cachedInputTokens * (price.cachedInput ?? price.input) +
    cacheWriteTokens * (price.cacheWrite ?? price.input) +
    usage.outputTokens * price.output;
  return { ...figures, costUsd: micro / 1_000_000 };
}

/** The sum; its cost is unknown (null) as soon as one part's is. */
export function addUsageFigures(a: UsageFigures, b: UsageFigures): UsageFigures {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    cachedInputTokens: a.cachedInputTokens + b.cachedInputTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    durationMs: a.durationMs + b.durationMs,
    costUsd: a.costUsd === null || b.costUsd === null ? null : a.costUsd + b.costUsd,
  };
}
