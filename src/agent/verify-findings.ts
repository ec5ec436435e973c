import type { LensFinding } from "../findings/index.js";
import { MAX_FINDINGS_PER_LENS, stripFindingsBlock } from "../findings/index.js";
import type { AgentModel, ChatModel, LanguageModel, Message } from "../llm/index.js";
import { startDeadline } from "../time/index.js";
import { agentPrompt } from "./build-review-prompt.js";
import { buildVerifyPrompt } from "./build-verify-prompt.js";
import { checkLensAnswer } from "./check-lens-answer.js";
import { fenceText } from "./fence-untrusted.js";
import { finalOutput } from "./finalize.js";
import { matchVerifiedFindings } from "./match-verified-findings.js";
import { publicFailureReason } from "./public-failure-reason.js";
import type { ReviewAnswer } from "./review-answer.js";
import type { ReviewSession } from "./review-session.js";
import { runAgentTurn } from "./run-agent-turn.js";
import { runToolLoop } from "./run-tool-loop.js";
import { verifyPrompt } from "./turn-prompts.js";

export interface VerifyOutcome {
  /** False when the verification gave no usable answer: the review's findings stand, unverified. */
  completed: boolean;
  surviving: LensFinding[];
  dropped: LensFinding[];
  /** The published lens text: the verification note, then the review. */
  text: string;
  /** The verification's VERDICT line when it completed, else the review's. */
  statedVerdict: string | null;
  recovered: boolean;
}

interface VerifyAnswer {
  text: string;
  recovered: boolean;
}

/**
 * The survival pass: the model re-checks its own findings in the source and
 * answers with a note and the block of those that hold. It can only remove:
 * a finding it does not list is dropped (counted and shown), an entry it adds
 * is ignored, and an answer that cannot be read keeps every finding.
 * Cancellation propagates; any other failure leaves the review as it was.
 */
export async function verifyFindings(
  model: LanguageModel,
  session: ReviewSession,
  review: ReviewAnswer,
): Promise<VerifyOutcome> {
  let answer: VerifyAnswer | string;
  try {
    const compact = (session.prompt.input.style ?? "compact") === "compact";
    if (model.kind === "agent") answer = await verifyInNewRun(model, session, review, compact);
    else if (compact)
      answer = await verifyWithTools(model, session, verifySession(session, review));
    else if (review.conversation === null) answer = "there is no conversation to continue";
    else {
      answer = await verifyWithTools(model, session, [
        ...review.conversation,
        { role: "user", content: verifyPrompt(review.findings, true) },
      ]);
    }
  } catch (error) {
    if (session.signal.aborted) throw error;
    answer = publicFailureReason(error);
  }
  if (typeof answer === "string") return incomplete(review, answer);

  const checked = checkLensAnswer(answer.text);
  if (!checked.usable) {
    return incomplete(
      review,
      `no usable findings block in its answer (${checked.problems.join("; ")})`,
    );
  }
  const { surviving, dropped, added } = matchVerifiedFindings(review.findings, checked.findings);
  const notes = [
    stripFindingsBlock(answer.text) ||
      `Verified ${review.findings.length} finding(s) against the source.`,
  ];
  if (dropped.length > 0) {
    const list = dropped
      .map((finding) => `\`${finding.file}:${finding.line}\` ${finding.title}`)
      .join("; ");
    notes.push(
      `Verification dropped ${dropped.length} of ${review.findings.length} findings: ${list}.`,
    );
  }
  if (checked.overLimit > 0) {
    notes.push(
      `The verification answer listed ${checked.overLimit} finding(s) beyond the limit of ${MAX_FINDINGS_PER_LENS} per lens; they were not read.`,
    );
  }
  if (added.length > 0) {
    notes.push(
      `The verification answer listed ${added.length} finding(s) the review did not report; verification can only remove findings, so they were ignored.`,
    );
  }
  return {
    completed: true,
    surviving,
    dropped,
    text: `${notes.join("\n\n")}\n\n${review.text}`,
    statedVerdict: checked.verdict ?? review.statedVerdict,
    recovered: answer.recovered,
  };
}

/** A compact verification's messages: its own short session (buildVerifyPrompt). */
function verifySession(session: ReviewSession, review: ReviewAnswer): Message[] {
  const prompt = buildVerifyPrompt(session, review.findings, "repo-tools");
  return [
    { role: "system", content: prompt.system },
    { role: "user", content: prompt.context },
    { role: "user", content: prompt.request },
  ];
}

/** The tool loop over `messages`, whose last one is the verification request. */
async function verifyWithTools(
  model: ChatModel,
  session: ReviewSession,
  messages: readonly Message[],
): Promise<VerifyAnswer | string> {
  const windowStart = messages.length - 1;
  const deadline = startDeadline(
    session.clock,
    Math.max(session.graceMs, session.deadline.remaining()),
    session.signal,
  );
  try {
    const loop = await runToolLoop({
      model,
      messages,
      tools: session.tools,
      maxTurns: session.verifyMaxTurns,
      deadline,
      signal: session.signal,
      clock: session.clock,
      graceMs: session.graceMs,
      describeBudget: (stop) =>
        stop === "max-turns"
          ? `${session.verifyMaxTurns} verification turns`
          : "the verification time",
      maxToolCallsPerTurn: session.maxToolCallsPerTurn,
      toolOutputBudget: session.toolOutputBudget,
      onTurn: session.onTurn,
      onTool: session.onTool,
      onUsage: session.onUsage,
    });
    const text = finalOutput(loop.terminal, loop.before);
    if (text !== loop.terminal && !recoveredFromWindow(text, loop.messages.slice(windowStart))) {
      // Finalize reached back past the verification request: that is the review, not a verification.
      return "its answer only pointed back at the review";
    }
    return { text, recovered: text !== loop.terminal };
  } finally {
    deadline.dispose();
  }
}

async function verifyInNewRun(
  model: AgentModel,
  session: ReviewSession,
  review: ReviewAnswer,
  compact: boolean,
): Promise<VerifyAnswer> {
  const short = compact ? buildVerifyPrompt(session, review.findings, "agent") : null;
  const prompt =
    short === null
      ? `${agentPrompt(session)}\n\n---\n\n## Your review\n\n${fenceText(review.text)}\n\n${verifyPrompt(review.findings, false)}`
      : [short.system, short.context, short.request].join("\n\n---\n\n");
  const deadline = startDeadline(
    session.clock,
    Math.max(session.graceMs, session.deadline.remaining()),
    session.signal,
  );
  try {
    const turn = await runAgentTurn(
      model,
      prompt,
      session,
      deadline,
      "the verification run timed out",
    );
    return { text: turn.text, recovered: turn.text !== turn.terminal };
  } finally {
    deadline.dispose();
  }
}

function recoveredFromWindow(text: string, window: readonly Message[]): boolean {
  return window.some(
    (message) =>
      message.role === "assistant" &&
      message.content.trim() !== "" &&
      text.startsWith(message.content.trim()),
  );
}

function incomplete(review: ReviewAnswer, reason: string): VerifyOutcome {
  return {
    completed: false,
    surviving: review.findings,
    dropped: [],
    text: `verification did not complete: ${reason}. The review's findings are kept, unverified.\n\n${review.text}`,
    statedVerdict: review.statedVerdict,
    recovered: false,
  };
}
