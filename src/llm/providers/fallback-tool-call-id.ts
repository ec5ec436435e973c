import type { Message } from "../message.js";

/**
 * An id for a tool call the provider left unnamed (Ollama never names them): `call_<turn>_<index>`,
 * where turn counts the assistant turns already in the conversation. Derived from the
 * conversation alone, so a replayed run produces the same ids as the recorded one.
 */
export function fallbackToolCallId(messages: readonly Message[], index: number): string {
  const turn = messages.filter((message) => message.role === "assistant").length;
  return `call_${turn}_${index}`;
}
