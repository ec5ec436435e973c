import type { AgentModel, Message, ToolCallTally } from "../llm/index.js";
import { abortError, raceAbort } from "../llm/index.js";
import type { Deadline } from "../time/index.js";
import { finalOutput } from "./finalize.js";
import { LensFailure } from "./public-failure-reason.js";
import type { ReviewSession } from "./review-session.js";

export interface AgentTurn {
  /** The agent's answer after finalize. */
  text: string;
  /** What the agent's last turn said, before finalize. */
  terminal: string;
  /** The tool calls its transcript shows, when it shows any. */
  toolCalls?: ToolCallTally | undefined;
}

/**
 * One run of an agent CLI in the workspace, its last turn recovered by
 * finalize from the transcript. A run cut by the deadline fails with
 * `timeoutReason`: an agent cannot be asked for a final turn once killed.
 */
export async function runAgentTurn(
  model: AgentModel,
  prompt: string,
  session: ReviewSession,
  deadline: Deadline,
  timeoutReason: string,
): Promise<AgentTurn> {
  session.onTurn();
  try {
    const result = await raceAbort(
      model.run({
        prompt,
        cwd: session.workspaceRoot,
        sharedCopies: session.workspaceCopies,
        signal: deadline.signal,
      }),
      deadline.signal,
    );
    session.onUsage(result.usage);
    return {
      text: finalOutput(result.text, earlierTurns(result.transcript, result.text)),
      terminal: result.text,
      toolCalls: result.toolCalls,
    };
  } catch (error) {
    if (session.signal.aborted) throw abortError(session.signal);
    if (deadline.expired) throw new LensFailure(timeoutReason);
    throw error;
  }
}

/** The transcript before the last turn: some CLIs repeat the final answer as their last message. */
function earlierTurns(transcript: readonly Message[], text: string): Message[] {
  const last = transcript.at(-1);
  if (last?.role === "assistant" && last.content.trim() === text.trim())
    return transcript.slice(0, -1);
  return [...transcript];
}
