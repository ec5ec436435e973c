import type { Usage } from "./language-model.js";

/**
 * Adds `used` into `total`, in place. The cache counts are kept only once a provider reported
 * one, so a model without a prompt cache never shows a misleading zero.
 */
export function addUsage(total: Usage, used: Usage): void {
  total.inputTokens += used.inputTokens;
  total.outputTokens += used.outputTokens;
  if (used.cachedInputTokens !== undefined) {
    total.cachedInputTokens = (total.cachedInputTokens ?? 0) + used.cachedInputTokens;
  }
  if (used.cacheWriteTokens !== undefined) {
    total.cacheWriteTokens = (total.cacheWriteTokens ?? 0) + used.cacheWriteTokens;
  }
  if (used.estimatedInputTokens !== undefined) {
    const estimated = (total.estimatedInputTokens ?? 0) + used.estimatedInputTokens;
    // An answer's correction cancels its call's estimate: nothing estimated is left to say.
    if (estimated === 0) delete total.estimatedInputTokens;
    else total.estimatedInputTokens = estimated;
  }
}
