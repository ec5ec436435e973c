import type { AgentModel } from "../llm/index.js";
import { startDeadline } from "../time/index.js";
import { agentPrompt } from "./build-review-prompt.js";
import { checkLensAnswer } from "./check-lens-answer.js";
import { fenceText } from "./fence-untrusted.js";
import { LensFailure, publicFailureReason } from "./public-failure-reason.js";
import type { ReviewAnswer } from "./review-answer.js";
import { repairedAnswer } from "./review-answer.js";
import type { ReviewSession } from "./review-session.js";
import { runAgentTurn } from "./run-agent-turn.js";
import { repairPrompt } from "./turn-prompts.js";

/**
 * The review phase for an agent CLI: one run with the whole prompt, finalize
 * over its transcript, the parse, and when there is no usable block one repair
 * run whose prompt carries the previous answer and asks for the block only.
 */
export async function agentReview(
  model: AgentModel,
  session: ReviewSession,
): Promise<ReviewAnswer> {
  const prompt = agentPrompt(session);
  const first = await runAgentTurn(
    model,
    prompt,
    session,
    session.deadline,
    `timed out after ${session.timeoutSeconds} s`,
  );
  if (first.toolCalls !== undefined) {
    session.reviewTools.attempted += first.toolCalls.attempted;
    session.reviewTools.failed += first.toolCalls.failed;
  }
  const checked = checkLensAnswer(first.text, { lens: session.prompt.lens.id });
  if (checked.usable) {
    return {
      text: first.text,
      statedVerdict: checked.verdict,
      findings: checked.findings,
      rejected: checked.rejected,
      overLimit: checked.overLimit,
      recovered: first.text !== first.terminal,
      conversation: null,
    };
  }

  const repairRequest = `${prompt}\n\n---\n\n## Your previous answer\n\n${fenceText(first.text)}\n\n${repairPrompt(checked.problems)}`;
  const deadline = startDeadline(
    session.clock,
    Math.max(session.graceMs, session.deadline.remaining()),
    session.signal,
  );
  let repaired: Awaited<ReturnType<typeof runAgentTurn>>;
  try {
    repaired = await runAgentTurn(
      model,
      repairRequest,
      session,
      deadline,
      `no findings block, and the repair run timed out: ${checked.problems.join("; ")}`,
    );
  } catch (error) {
    if (session.signal.aborted) throw error;
    throw new LensFailure(publicFailureReason(error), first.text, error);
  } finally {
    deadline.dispose();
  }
  return repairedAnswer(
    first.text,
    repaired.text,
    first.text !== first.terminal || repaired.text !== repaired.terminal,
    null,
    { lens: session.prompt.lens.id },
  );
}
