import type { LanguageModel, Message, Usage } from "../llm/index.js";
import { raceAbort } from "../llm/index.js";
import type { Clock, Deadline } from "../time/index.js";
import { finalOutput } from "./finalize.js";
import { repoTools } from "./repo-tools.js";
import { runToolLoop } from "./run-tool-loop.js";
import type { Workspace } from "./workspace.js";

/** One short session's setting: who answers, where, and within what. */
export interface ShortSession {
  model: LanguageModel;
  workspace: Workspace;
  maxTurns: number;
  timeoutSeconds: number;
  /** The session's own deadline (its timeout), and the caller's signal behind it. */
  deadline: Deadline;
  signal: AbortSignal;
  clock: Clock;
  /** The most tool output one session reads, in bytes. */
  toolOutputBytes: number;
  onTurn: () => void;
  onUsage: (usage: Usage) => void;
}

/**
 * Asks a short session's question: a tool loop on the workspace for a chat model, one run for an
 * agent CLI, the last turn through finalize. Returns the answer's text and the conversation (for
 * a repair turn). Used by cross-examination, re-checks and answers in a finding's thread.
 */
export async function askWithTools(
  session: ShortSession,
  messages: Message[],
): Promise<{ text: string; messages: Message[] }> {
  const { model, workspace, deadline } = session;
  if (model.kind === "agent") {
    session.onTurn();
    const prompt = messages.map((message) => message.content).join("\n\n---\n\n");
    const result = await raceAbort(
      model.run({
        prompt,
        cwd: workspace.root,
        sharedCopies: workspace.sharedCopies,
        signal: deadline.signal,
      }),
      deadline.signal,
    );
    session.onUsage(result.usage);
    const text = finalOutput(result.text, result.transcript.slice(0, -1));
    return { text, messages: [...messages, { role: "assistant", content: result.text }] };
  }
  const loop = await runToolLoop({
    model,
    messages,
    tools: repoTools(workspace),
    maxTurns: session.maxTurns,
    deadline,
    signal: session.signal,
    clock: session.clock,
    graceMs: Math.min(30_000, Math.max(5_000, session.timeoutSeconds * 100)),
    describeBudget: (stop) =>
      stop === "max-turns" ? `${session.maxTurns} turns` : `${session.timeoutSeconds} s`,
    maxToolCallsPerTurn: 8,
    toolOutputBudget: { remainingBytes: session.toolOutputBytes },
    onTurn: session.onTurn,
    onTool: () => undefined,
    onUsage: session.onUsage,
  });
  return { text: finalOutput(loop.terminal, loop.before), messages: loop.messages };
}
