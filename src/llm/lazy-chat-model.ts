import type { ChatModel, ChatRequest, ChatResult } from "./language-model.js";

/**
 * A chat model whose adapter (and with it the provider's SDK) is loaded at its first call, not
 * at start-up: a deployment pays in memory and start time only for the provider types its
 * config names (the openai, ollama and Anthropic SDKs are several megabytes of heap each).
 * The load is shared by every model built from the same `load`.
 */
export function lazyChatModel(
  identity: { provider: string; modelId: string },
  load: () => Promise<ChatModel>,
): ChatModel {
  let model: Promise<ChatModel> | undefined;
  return {
    kind: "chat",
    provider: identity.provider,
    modelId: identity.modelId,
    chat(request: ChatRequest): Promise<ChatResult> {
      model ??= load();
      return model.then((loaded) => loaded.chat(request));
    },
  };
}
