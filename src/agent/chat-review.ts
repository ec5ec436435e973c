import type { ChatModel, Message } from "../llm/index.js";
import { abortError, raceAbort } from "../llm/index.js";
import { startDeadline } from "../time/index.js";
import { buildReviewPrompt } from "./build-review-prompt.js";
import { checkLensAnswer } from "./check-lens-answer.js";
import { finalOutput } from "./finalize.js";
import { LensFailure, publicFailureReason } from "./public-failure-reason.js";
import type { ReviewAnswer } from "./review-answer.js";
import { repairedAnswer } from "./review-answer.js";
import type { ReviewSession } from "./review-session.js";
import { runToolLoop } from "./run-tool-loop.js";
import { repairPrompt } from "./turn-prompts.js";

/**
 * The review phase for a chat model: the tool loop, finalize on its terminal
 * turn, then the parse; when the answer has no usable block, one repair turn.
 * A lens that still has none fails: it is never reported clean.
 */
export async function chatReview(model: ChatModel, session: ReviewSession): Promise<ReviewAnswer> {
  const prompt = buildReviewPrompt(session.prompt.lens, session.prompt.input, "repo-tools");
  const loop = await runToolLoop({
    model,
    messages: [
      { role: "system", content: prompt.system },
      { role: "user", content: prompt.change },
      { role: "user", content: prompt.lens },
    ],
    tools: session.tools,
    maxTurns: session.maxTurns,
    deadline: session.deadline,
    signal: session.signal,
    clock: session.clock,
    graceMs: session.graceMs,
    describeBudget: (stop) =>
      stop === "max-turns" ? `${session.maxTurns} turns` : `${session.timeoutSeconds} s`,
    maxToolCallsPerTurn: session.maxToolCallsPerTurn,
    toolOutputBudget: session.toolOutputBudget,
    onTurn: session.onTurn,
    onTool: session.onTool,
    onUsage: session.onUsage,
  });
  const text = finalOutput(loop.terminal, loop.before);
  const checked = checkLensAnswer(text, { lens: session.prompt.lens.id });
  if (checked.usable) {
    return {
      text,
      statedVerdict: checked.verdict,
      findings: checked.findings,
      rejected: checked.rejected,
      overLimit: checked.overLimit,
      recovered: text !== loop.terminal,
      conversation: loop.messages,
    };
  }

  const messages: Message[] = [
    ...loop.messages,
    { role: "user", content: repairPrompt(checked.problems) },
  ];
  session.onTurn();
  const deadline = startDeadline(
    session.clock,
    Math.max(session.graceMs, session.deadline.remaining()),
    session.signal,
  );
  let repairTerminal: string;
  try {
    const result = await raceAbort(
      model.chat({ messages: [...messages], signal: deadline.signal }),
      deadline.signal,
    );
    session.onUsage(result.usage);
    repairTerminal = result.text;
  } catch (error) {
    if (session.signal.aborted) throw abortError(session.signal);
    if (deadline.expired) {
      throw new LensFailure(
        `no findings block, and the repair turn timed out: ${checked.problems.join("; ")}`,
        text,
      );
    }
    // Keep what the model did answer next to the reason.
    throw new LensFailure(publicFailureReason(error), text, error);
  } finally {
    deadline.dispose();
  }
  const repaired = finalOutput(repairTerminal, messages);
  return repairedAnswer(
    text,
    repaired,
    text !== loop.terminal || repaired !== repairTerminal,
    [...messages, { role: "assistant", content: repairTerminal }],
    { lens: session.prompt.lens.id },
  );
}
