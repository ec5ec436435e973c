import type {
  AgentModel,
  AgentRunRequest,
  AgentRunResult,
  ChatModel,
  ChatRequest,
  ChatResult,
  LanguageModel,
} from "./language-model.js";

/**
 * One cross-cutting concern around a model's calls (retry, recording, call
 * limiting…). `chat` wraps each chat turn, `run` each agent run; each receives
 * the request and `next`, the wrapped model's own call, and returns the answer.
 * A hook left out passes calls straight through.
 */
export interface LanguageModelMiddleware {
  chat?: (
    request: ChatRequest,
    next: (request: ChatRequest) => Promise<ChatResult>,
  ) => Promise<ChatResult>;
  run?: (
    request: AgentRunRequest,
    next: (request: AgentRunRequest) => Promise<AgentRunResult>,
  ) => Promise<AgentRunResult>;
}

/**
 * The model with `middleware` around its calls: the same kind, provider and
 * model id, a new object (the wrapped model is not changed). The chat/agent
 * branch is written here once, so each wrapper only says what it does to a call.
 * Inspired by vercel/ai's `wrapLanguageModel`.
 */
export function wrapLanguageModel(model: ChatModel, middleware: LanguageModelMiddleware): ChatModel;
export function wrapLanguageModel(
  model: AgentModel,
  middleware: LanguageModelMiddleware,
): AgentModel;
export function wrapLanguageModel(
  model: LanguageModel,
  middleware: LanguageModelMiddleware,
): LanguageModel;
export function wrapLanguageModel(
  model: LanguageModel,
  middleware: LanguageModelMiddleware,
): LanguageModel {
  if (model.kind === "chat") {
    const next = (request: ChatRequest) => model.chat(request);
    const wrap = middleware.chat;
    return {
      kind: "chat",
      provider: model.provider,
      modelId: model.modelId,
      chat: wrap === undefined ? next : (request) => wrap(request, next),
    };
  }
  const next = (request: AgentRunRequest) => model.run(request);
  const wrap = middleware.run;
  return {
    kind: "agent",
    provider: model.provider,
    modelId: model.modelId,
    run: wrap === undefined ? next : (request) => wrap(request, next),
  };
}
