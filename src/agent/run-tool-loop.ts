import type { ChatModel, ChatResult, Message, Usage } from "../llm/index.js";
import { abortError, ModelTimeoutError, raceAbort } from "../llm/index.js";
import type { Clock } from "../time/index.js";
import { type Deadline, startDeadline } from "../time/index.js";
import type { RepoTools } from "./repo-tools.js";
import { finalTurnPrompt, type LoopStop } from "./turn-prompts.js";

export interface ToolLoopOptions {
  model: ChatModel;
  /** The conversation so far; not mutated. */
  messages: readonly Message[];
  tools: RepoTools;
  maxTurns: number;
  /** The budget of the tool turns. */
  deadline: Deadline;
  /** Cancellation from outside (a newer push): aborts everything, no final turn. */
  signal: AbortSignal;
  clock: Clock;
  /** The time the final, tool-free turn gets when the budget ran out. */
  graceMs: number;
  /** How the budget is described to the model in the final turn, e.g. "24 turns" / "900 s". */
  describeBudget: (stop: LoopStop) => string;
  maxToolCallsPerTurn: number;
  /**
   * Bytes of tool output the conversation may still take, shared across the
   * phases of one review: past it, tools answer with an error instead, so a
   * model reading everything cannot overflow its own context.
   */
  toolOutputBudget: { remainingBytes: number };
  /** Called before each model call. */
  onTurn: () => void;
  onTool: (name: string, summary: string) => void;
  onUsage: (usage: Usage) => void;
}

export interface ToolLoopResult {
  /** The whole conversation, ending with the terminal assistant turn. */
  messages: Message[];
  /** The text of the terminal turn. */
  terminal: string;
  /** The conversation before the terminal turn: what finalize searches. */
  before: Message[];
  /** Why the loop ended: the model answered, or a budget forced the final turn. */
  stop: "answered" | LoopStop;
}

/**
 * Chat ↔ tools until the model answers without calling a tool. When the turn
 * budget or the time budget runs out first, one last turn without tools asks
 * for the answer now, under a short deadline of its own. Throws the model's
 * error, an abort error on cancellation, and a timeout when even the final
 * turn does not answer in time.
 */
export async function runToolLoop(options: ToolLoopOptions): Promise<ToolLoopResult> {
  const messages: Message[] = [...options.messages];
  const { deadline, signal } = options;
  let stop: LoopStop | undefined;
  for (let turn = 1; stop === undefined; turn++) {
    if (turn > options.maxTurns) {
      stop = "max-turns";
      break;
    }
    if (deadline.expired) {
      stop = "timeout";
      break;
    }
    options.onTurn();
    let result: ChatResult;
    try {
      result = await raceAbort(
        options.model.chat({
          messages: [...messages],
          tools: options.tools.definitions,
          signal: deadline.signal,
        }),
        deadline.signal,
      );
    } catch (error) {
      if (signal.aborted) throw abortError(signal);
      if (deadline.expired) {
        stop = "timeout";
        break;
      }
      throw error;
    }
    options.onUsage(result.usage);
    if (result.toolCalls.length === 0) {
      messages.push({ role: "assistant", content: result.text });
      return finish(messages, "answered");
    }
    messages.push({ role: "assistant", content: result.text, toolCalls: result.toolCalls });
    for (const [index, call] of result.toolCalls.entries()) {
      let content: string;
      if (index >= options.maxToolCallsPerTurn) {
        content = `error: not run: at most ${options.maxToolCallsPerTurn} tool calls per turn`;
      } else if (deadline.expired) {
        content = "error: not run: the time budget is exhausted";
      } else if (options.toolOutputBudget.remainingBytes <= 0) {
        content =
          "error: not run: the tool output budget of this review is spent; give your answer";
      } else {
        const execution = await options.tools.execute(call, deadline.signal);
        options.onTool(call.name, execution.summary);
        content = deadline.expired
          ? "error: not run: the time budget is exhausted"
          : execution.content;
        options.toolOutputBudget.remainingBytes -= Buffer.byteLength(content, "utf8");
      }
      if (signal.aborted) throw abortError(signal);
      messages.push({ role: "tool", content, toolCallId: call.id });
    }
  }

  messages.push({ role: "user", content: finalTurnPrompt(stop, options.describeBudget(stop)) });
  options.onTurn();
  const grace = startDeadline(options.clock, options.graceMs, signal);
  try {
    const result = await raceAbort(
      options.model.chat({ messages: [...messages], signal: grace.signal }),
      grace.signal,
    );
    options.onUsage(result.usage);
    // Tool calls are not honoured here: the conversation ends with this text.
    messages.push({ role: "assistant", content: result.text });
    return finish(messages, stop);
  } catch (error) {
    if (signal.aborted) throw abortError(signal);
    if (grace.expired) {
      throw new ModelTimeoutError(
        stop === "timeout"
          ? `timed out after ${options.describeBudget(stop)}, and no answer came in the final turn`
          : "no answer came in the final turn, within its time limit",
      );
    }
    throw error;
  } finally {
    grace.dispose();
  }
}

function finish(messages: Message[], stop: ToolLoopResult["stop"]): ToolLoopResult {
  const terminal = messages.at(-1)?.content ?? "";
  return { messages, terminal, before: messages.slice(0, -1), stop };
}
