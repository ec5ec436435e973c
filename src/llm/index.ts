// Front door of src/llm: language models: the model interfaces, providers, errors, redaction.
// Other folders import only from here; this lists what they use today.
export { abortError } from "./abort-error.js";
export { addUsage } from "./add-usage.js";
export { createLanguageModel, type ModelFactory } from "./create-language-model.js";
export { isModelError, ModelTimeoutError } from "./errors.js";
export { estimateUsage } from "./estimate-usage.js";
export { failoverReason } from "./failover-reason.js";
export { EmptyCompletionError, guardEmptyCompletions } from "./guard-empty-completions.js";
export type {
  AgentModel,
  AgentRunRequest,
  ChatModel,
  ChatResult,
  LanguageModel,
  ToolCallTally,
  ToolDefinition,
  Usage,
} from "./language-model.js";
export { createInMemoryModelCallLimiter } from "./limits/in-memory-model-call-limiter.js";
export { limitModelCalls, type ModelCallSample } from "./limits/limit-model-calls.js";
export { limitedModelFactory } from "./limits/limited-model-factory.js";
export type { ModelCallLimiter, ModelCallSlot, ProviderCap } from "./limits/model-call-limiter.js";
export { providerCap } from "./limits/provider-cap.js";
export { memoizeRedactor, type RedactorMemoLimits } from "./memoize-redactor.js";
export type { Message, ToolCall } from "./message.js";
export { meterModelCalls } from "./meter-model-calls.js";
export { modelCallIdleTimeoutMs } from "./model-call-idle-timeout.js";
export { raceAbort } from "./race-abort.js";
export { createRedactor, type Redactor, redactSecrets } from "./redact-secrets.js";
export {
  type LanguageModelMiddleware,
  wrapLanguageModel,
} from "./wrap-language-model.js";
