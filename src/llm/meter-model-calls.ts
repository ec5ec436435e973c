import { estimateUsage } from "./estimate-usage.js";
import type { Usage } from "./language-model.js";
import type { LanguageModelMiddleware } from "./wrap-language-model.js";

/**
 * Charges every call as it is sent, so no call is free: `charge` gets the request's estimate
 * (estimateUsage) at once, before the provider answers, fails, times out or is aborted. An
 * answer's own usage comes back less that estimate, so a caller that adds the answer's usage
 * as before ends with what the provider reported; a provider that reported nothing leaves
 * the estimate, marked estimated. A failed, timed-out or aborted call keeps its estimate (the
 * provider bills a prompt it read; a retry inside the call is not charged again).
 */
export function meterModelCalls(charge: (usage: Usage) => void): LanguageModelMiddleware {
  return {
    async chat(request, next) {
      const estimate = estimateUsage({ messages: request.messages, tools: request.tools });
      charge(estimate);
      const result = await next(request);
      return { ...result, usage: lessEstimate(result.usage, estimate) };
    },
    async run(request, next) {
      const estimate = estimateUsage({ prompt: request.prompt });
      charge(estimate);
      const result = await next(request);
      return { ...result, usage: lessEstimate(result.usage, estimate) };
    },
  };
}

/** The reported usage less the estimate already charged; nothing when nothing was reported. */
function lessEstimate(reported: Usage, estimate: Usage): Usage {
  if (reported.inputTokens === 0 && reported.outputTokens === 0) {
    return { inputTokens: 0, outputTokens: 0 };
  }
  return {
    ...reported,
    inputTokens: reported.inputTokens - estimate.inputTokens,
    estimatedInputTokens: -(estimate.estimatedInputTokens ?? 0),
  };
}
