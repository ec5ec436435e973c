/** Provider-neutral conversation types: the core imports these, never a provider's own. */

export type Role = "system" | "user" | "assistant" | "tool";

export interface ToolCall {
  id: string;
  name: string;
  /** The raw JSON text the model produced; parsed (and possibly rejected) by the tool loop. */
  arguments: string;
}

export interface Message {
  role: Role;
  content: string;
  /** Assistant turns only: the tools the model asked for in this turn. */
  toolCalls?: ToolCall[];
  /** Tool turns only: which call this result answers. */
  toolCallId?: string;
}
