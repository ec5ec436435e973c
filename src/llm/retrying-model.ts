import type { LanguageModel } from "./language-model.js";
import { type RetryOptions, withRetry } from "./with-retry.js";

/** Wraps a model so each chat turn or agent run follows the retry policy. */
export function retryingModel(
  model: LanguageModel,
  options: Partial<RetryOptions> = {},
): LanguageModel {
  if (model.kind === "chat") {
    return {
      kind: "chat",
      provider: model.provider,
      modelId: model.modelId,
      chat: (request) =>
        withRetry(() => model.chat(request), { ...options, signal: request.signal }),
    };
  }
  return {
    kind: "agent",
    provider: model.provider,
    modelId: model.modelId,
    run: (request) => withRetry(() => model.run(request), { ...options, signal: request.signal }),
  };
}
