import type { ProviderConfig } from "../config/index.js";
import { createLanguageModel, type LanguageModel } from "../llm/index.js";
import type { RoundRuntime, RoundSubject } from "./round-request.js";

/**
 * Builds a round's model for one short session (a re-check) the way its lenses' models are
 * built (the caller's factory, else the provider's own), named by `lensOf` so recording and
 * replay keep one transcript per session. Throws for a model or provider the plan lacks.
 */
export function sessionModelFor(
  subject: Pick<RoundSubject, "plan" | "providers">,
  runtime: Pick<RoundRuntime, "env" | "createModel" | "record">,
  lensOf: (fingerprint: string) => string,
): (modelId: string, fingerprint: string) => LanguageModel {
  const models = new Map(subject.plan.models.map((model) => [model.id, model]));
  const providers = new Map<string, ProviderConfig>(
    subject.providers.map((provider) => [provider.name, provider]),
  );
  return (modelId, fingerprint) => {
    const model = models.get(modelId);
    const provider = model === undefined ? undefined : providers.get(model.provider);
    if (model === undefined || provider === undefined) throw new Error(`unknown model ${modelId}`);
    const lens = lensOf(fingerprint);
    return (
      runtime.createModel?.(model, provider, lens) ??
      createLanguageModel({ model, provider, env: runtime.env, lens, record: runtime.record })
    );
  };
}
