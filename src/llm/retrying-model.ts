import type { LanguageModel } from "./language-model.js";
import { type RetryOptions, withRetry } from "./with-retry.js";
import { wrapLanguageModel } from "./wrap-language-model.js";

/** Wraps a model so each chat turn or agent run follows the retry policy. */
export function retryingModel(
  model: LanguageModel,
  options: Partial<RetryOptions> = {},
): LanguageModel {
  return wrapLanguageModel(model, {
    chat: (request, next) => withRetry(() => next(request), { ...options, signal: request.signal }),
    run: (request, next) => withRetry(() => next(request), { ...options, signal: request.signal }),
  });
}
