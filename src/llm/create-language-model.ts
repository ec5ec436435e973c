import type { ModelConfig, ProviderConfig } from "../config/index.js";
import type { AgentIsolation } from "../sandbox/index.js";
import { ModelError } from "./errors.js";
import type { LanguageModel } from "./language-model.js";
import { lazyChatModel } from "./lazy-chat-model.js";
import { createCommandAgentModel } from "./providers/command/command-agent-model.js";
import { recordingModel } from "./providers/replay/recording-model.js";
import { createReplayModel } from "./providers/replay/replay-model.js";
import { retryingModel } from "./retrying-model.js";
import type { RetryOptions } from "./with-retry.js";

/** Builds each reviewer's model for a (model, provider, lens): the provider's own adapter, or one wrapped in limits. */
export type ModelFactory = (
  model: ModelConfig,
  provider: ProviderConfig,
  lens: string,
) => LanguageModel;

export interface CreateLanguageModelOptions {
  model: ModelConfig;
  /** The provider `model.provider` names. */
  provider: ProviderConfig;
  /** Where keys are read from (by the names in `apiKeyEnv`) and what a command may inherit. */
  env: Readonly<Record<string, string | undefined>>;
  /** Replay and recording keep one transcript per (model, lens). */
  lens: string;
  /** Record every successful answer under this directory (`--record DIR`). */
  record?: { dir: string } | undefined;
  retry?: Partial<RetryOptions> | undefined;
  /** For Retry-After given as an HTTP date. */
  now?: (() => number) | undefined;
  /** How `command` providers' CLIs are isolated (detectIsolation at start-up); default none. */
  isolation?: AgentIsolation | undefined;
  /**
   * What the http providers (openai, ollama, anthropic) send their requests with: the
   * process's one fetch, whose kept-alive sockets every model shares; the global fetch by default.
   */
  fetch?: typeof fetch | undefined;
}

/**
 * The model for one (model, lens) reviewer: the provider's adapter, optionally recording,
 * behind the retry policy. Throws a ModelError for what no retry can fix: a key variable
 * that is missing or empty (named, never its value), an unusable replay recording.
 */
export function createLanguageModel(options: CreateLanguageModelOptions): LanguageModel {
  const { model, provider, env } = options;
  if (model.provider !== provider.name) {
    throw new ModelError(
      `model ${model.id} uses provider ${model.provider}, but was given provider ${provider.name}`,
    );
  }
  const modelName = model.model ?? model.id;
  const now = options.now ?? Date.now;
  const identity = { provider: provider.name, modelId: model.id };
  let base: LanguageModel;
  // Each SDK is imported when a model of its provider type first speaks (lazy-chat-model.ts);
  // the key is read now, so a missing one is still reported before any round.
  switch (provider.type) {
    case "openai": {
      const apiKey = readApiKey(provider.name, provider.apiKeyEnv, env);
      base = lazyChatModel(identity, async () =>
        (await import("./providers/openai/openai-chat-model.js")).createOpenAIChatModel({
          provider,
          modelId: model.id,
          model: modelName,
          apiKey,
          now,
          fetch: options.fetch,
        }),
      );
      break;
    }
    case "ollama": {
      const apiKey = readApiKey(provider.name, provider.apiKeyEnv, env);
      base = lazyChatModel(identity, async () =>
        (await import("./providers/ollama/ollama-chat-model.js")).createOllamaChatModel({
          provider,
          modelId: model.id,
          model: modelName,
          apiKey,
          now,
          fetch: options.fetch,
        }),
      );
      break;
    }
    case "anthropic": {
      const apiKey = readApiKey(provider.name, provider.apiKeyEnv, env);
      base = lazyChatModel(identity, async () =>
        (await import("./providers/anthropic/anthropic-chat-model.js")).createAnthropicChatModel({
          provider,
          modelId: model.id,
          model: modelName,
          apiKey,
          thinkingBudgetTokens: model.thinkingBudgetTokens,
          now,
          fetch: options.fetch,
        }),
      );
      break;
    }
    case "command":
      base = createCommandAgentModel({
        provider,
        modelId: model.id,
        model: modelName,
        env,
        isolation: options.isolation,
      });
      break;
    case "replay":
      base = createReplayModel({
        provider: provider.name,
        modelId: model.id,
        lens: options.lens,
        dir: provider.dir,
      });
      break;
  }
  const recorded =
    options.record === undefined
      ? base
      : recordingModel(base, { dir: options.record.dir, lens: options.lens });
  return retryingModel(recorded, options.retry);
}

function readApiKey(
  provider: string,
  variable: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  if (variable === undefined) {
    return undefined;
  }
  const value = env[variable]?.trim();
  if (value === undefined || value === "") {
    throw new ModelError(
      `${provider}: the API key variable ${variable} is ${value === undefined ? "not set" : "empty"}`,
    );
  }
  return value;
}
