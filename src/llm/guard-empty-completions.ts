import { ModelError } from "./errors.js";
import type { LanguageModel } from "./language-model.js";
import { wrapLanguageModel } from "./wrap-language-model.js";

/** The model answered nothing (no text, no tool call) twice in a row: a reason to fail over. */
export class EmptyCompletionError extends ModelError {
  constructor(provider: string) {
    super(`${provider}: empty completion twice`, { isRetryable: false });
    this.name = "EmptyCompletionError";
  }
}

/**
 * The model, failing with EmptyCompletionError on its second empty answer in a row (a chat turn
 * with neither text nor tool calls, or an agent run with no text). One empty answer is left to
 * the lens (finalize, the repair turn); a second means the model is not going to answer.
 */
export function guardEmptyCompletions(model: LanguageModel): LanguageModel {
  let emptyInARow = 0;
  const check = (empty: boolean) => {
    emptyInARow = empty ? emptyInARow + 1 : 0;
    if (emptyInARow >= 2) throw new EmptyCompletionError(model.provider);
  };
  return wrapLanguageModel(model, {
    async chat(request, next) {
      const result = await next(request);
      check(result.text.trim() === "" && result.toolCalls.length === 0);
      return result;
    },
    async run(request, next) {
      const result = await next(request);
      check(result.text.trim() === "");
      return result;
    },
  });
}
