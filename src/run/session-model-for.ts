import type { ProviderConfig } from "../config/index.js";
import { createLanguageModel, type LanguageModel } from "../llm/index.js";
import type { ReviewRoundOptions } from "./review-round.js";

/**
 * Builds a round's model for one short session (a re-check) the way its lenses' models are
 * built (the caller's factory, else the provider's own), named by `lensOf` so recording and
 * replay keep one transcript per session. Throws for a model or provider the plan lacks.
 */
export function sessionModelFor(
  options: Pick<ReviewRoundOptions, "plan" | "providers" | "env" | "createModel" | "record">,
  lensOf: (fingerprint: string) => string,
): (modelId: string, fingerprint: string) => LanguageModel {
  const models = new Map(options.plan.models.map((model) => [model.id, model]));
  const providers = new Map<string, ProviderConfig>(
    options.providers.map((provider) => [provider.name, provider]),
  );
  return (modelId, fingerprint) => {
    const model = models.get(modelId);
    const provider = model === undefined ? undefined : providers.get(model.provider);
    if (model === undefined || provider === undefined) throw new Error(`unknown model ${modelId}`);
    const lens = lensOf(fingerprint);
    return (
      options.createModel?.(model, provider, lens) ??
      createLanguageModel({ model, provider, env: options.env, lens, record: options.record })
    );
  };
}
