import type { ModelConfig, ProviderConfig } from "../../config/index.js";
import type { AgentIsolation } from "../../sandbox/index.js";
import { createLanguageModel } from "../create-language-model.js";
import type { LanguageModel } from "../language-model.js";
import { limitModelCalls, type ModelCallSample } from "./limit-model-calls.js";
import type { ModelCallLimiter } from "./model-call-limiter.js";

export interface LimitedModelFactoryOptions {
  /** Where provider keys are read from. */
  env: Readonly<Record<string, string | undefined>>;
  modelCalls: ModelCallLimiter;
  /** Where each call's latency is counted: the operations server's `GadflyMetrics` in the app. */
  metrics?: { modelCall(sample: ModelCallSample): void };
  /** How agent CLIs are isolated in this process (detected at start-up). */
  isolation?: AgentIsolation | undefined;
  /** Record every successful answer under this directory (the CLI's `--record DIR`). */
  record?: { dir: string } | undefined;
  /** The process's one fetch for the http providers (createLanguageModel's `fetch`). */
  fetch?: typeof fetch | undefined;
}

/**
 * Builds each reviewer's model as the provider's adapter would, with every
 * call (retries included) holding one of its provider's slots, and its
 * latency counted for `/metrics`.
 */
export function limitedModelFactory(
  options: LimitedModelFactoryOptions,
): (model: ModelConfig, provider: ProviderConfig, lens: string) => LanguageModel {
  const onCall = options.metrics?.modelCall;
  return (model, provider, lens) =>
    limitModelCalls(
      createLanguageModel({
        model,
        provider,
        env: options.env,
        lens,
        isolation: options.isolation,
        record: options.record,
        fetch: options.fetch,
      }),
      options.modelCalls,
      onCall === undefined ? {} : { onCall },
    );
}
