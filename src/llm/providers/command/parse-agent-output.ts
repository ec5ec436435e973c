import type { AgentRunResult, Usage } from "../../language-model.js";
import type { Message, ToolCall } from "../../message.js";
import { countToolCalls } from "./count-tool-calls.js";
import { parseTranscriptLine, type TranscriptEvent } from "./parse-transcript-line.js";

/**
 * An agent CLI's stdout as a result. When every non-empty line is a JSON object, stdout is
 * a transcript (Claude Code's stream-json, Codex's --json, or generic role/content lines):
 * the last assistant text (or the final `result`) is the answer and the turns before it
 * are kept for finalize, which may recover a real answer from them. Otherwise stdout is
 * the answer itself.
 */
export function parseAgentOutput(stdout: string): AgentRunResult {
  const events = parseJsonLines(stdout);
  if (events === undefined) {
    return { text: stdout.trim(), transcript: [], usage: { inputTokens: 0, outputTokens: 0 } };
  }
  const messages: Message[] = [];
  let resultText: string | undefined;
  let resultUsage: Usage | undefined;
  const summedUsage: Usage = { inputTokens: 0, outputTokens: 0 };
  const state: MergeState = { openDelta: false, lastMessageId: undefined };
  for (const record of events) {
    const event = parseTranscriptLine(record);
    apply(event, messages, state);
    if (event.kind === "result") {
      resultText = event.text ?? resultText;
      resultUsage = event.usage ?? resultUsage;
    } else if (event.usage !== undefined) {
      summedUsage.inputTokens += event.usage.inputTokens;
      summedUsage.outputTokens += event.usage.outputTokens;
    }
  }
  const toolCalls = countToolCalls(events);
  return {
    ...splitFinalAnswer(messages, resultText),
    usage: resultUsage ?? summedUsage,
    ...(toolCalls === undefined ? {} : { toolCalls }),
  };
}

function parseJsonLines(stdout: string): Record<string, unknown>[] | undefined {
  const lines = stdout.split(/\r?\n/).filter((line) => line.trim() !== "");
  if (lines.length === 0) {
    return undefined;
  }
  const records: Record<string, unknown>[] = [];
  for (const line of lines) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      return undefined;
    }
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
      return undefined;
    }
    records.push(parsed as Record<string, unknown>);
  }
  return records;
}

interface MergeState {
  /** The last message is a streaming delta that the next delta continues. */
  openDelta: boolean;
  /** Claude Code emits one line per content block of one API message; they share this id. */
  lastMessageId: string | undefined;
}

function apply(event: TranscriptEvent, messages: Message[], state: MergeState): void {
  if (event.kind !== "messages") {
    return;
  }
  for (const message of event.messages) {
    const last = messages.at(-1);
    const continues =
      last !== undefined &&
      last.role === message.role &&
      ((event.delta && state.openDelta) ||
        (event.messageId !== undefined && event.messageId === state.lastMessageId));
    if (continues) {
      merge(last, message, event.delta);
    } else {
      messages.push(message);
    }
    state.lastMessageId = event.messageId;
  }
  state.openDelta = event.delta;
}

function merge(target: Message, addition: Message, delta: boolean): void {
  if (addition.content !== "") {
    target.content =
      delta || target.content === ""
        ? target.content + addition.content
        : `${target.content}\n${addition.content}`;
  }
  const toolCalls: ToolCall[] = [...(target.toolCalls ?? []), ...(addition.toolCalls ?? [])];
  if (toolCalls.length > 0) {
    target.toolCalls = toolCalls;
  }
}

function splitFinalAnswer(
  messages: Message[],
  resultText: string | undefined,
): { text: string; transcript: Message[] } {
  const last = messages.at(-1);
  const lastIsPlainAnswer =
    last !== undefined &&
    last.role === "assistant" &&
    (last.toolCalls ?? []).length === 0 &&
    last.content.trim() !== "";
  if (resultText !== undefined && resultText.trim() !== "") {
    const duplicate = lastIsPlainAnswer && last.content.trim() === resultText.trim();
    return { text: resultText, transcript: duplicate ? messages.slice(0, -1) : messages };
  }
  if (lastIsPlainAnswer) {
    return { text: last.content, transcript: messages.slice(0, -1) };
  }
  const answer = messages.findLast(
    (message) => message.role === "assistant" && message.content.trim() !== "",
  );
  return { text: answer?.content ?? "", transcript: messages };
}
