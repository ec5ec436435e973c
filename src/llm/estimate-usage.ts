import type { Usage } from "./language-model.js";
import type { Message } from "./message.js";

/** Characters per token of the estimate: about what English and code come to with today's tokenizers. */
const CHARS_PER_TOKEN = 4;

/**
 * What a request will be billed at least, from its size: its input (messages, tool
 * definitions, an agent's prompt) at four characters a token, nothing of output. Marked
 * estimated, so what a provider never reported is told apart from what it did.
 */
export function estimateUsage(request: {
  messages?: readonly Message[];
  tools?: readonly unknown[] | undefined;
  prompt?: string;
}): Usage {
  let chars = request.prompt?.length ?? 0;
  for (const message of request.messages ?? []) {
    chars += message.content?.length ?? 0;
    if ("toolCalls" in message && message.toolCalls !== undefined) {
      chars += JSON.stringify(message.toolCalls).length;
    }
  }
  if (request.tools !== undefined) chars += JSON.stringify(request.tools).length;
  const inputTokens = Math.ceil(chars / CHARS_PER_TOKEN);
  return { inputTokens, outputTokens: 0, estimatedInputTokens: inputTokens };
}
