import type { ReviewConfig } from "../config/index.js";
import { deriveVerdict, type LensFinding } from "../findings/index.js";
import {
  addUsage,
  type LanguageModel,
  meterModelCalls,
  type ToolCallTally,
  type Usage,
  wrapLanguageModel,
} from "../llm/index.js";
import { type Clock, startDeadline, systemClock } from "../time/index.js";
import { agentReview } from "./agent-review.js";
import type { ReviewPromptInput } from "./build-review-prompt.js";
import { chatReview } from "./chat-review.js";
import { MAX_ANSWER_CHARS } from "./check-lens-answer.js";
import type { LensEvent, LensEventBody } from "./lens-event.js";
import type { LensReport } from "./lens-report.js";
import type { LensDefinition } from "./load-lenses.js";
import { LensFailure, publicCancelReason, publicFailureReason } from "./public-failure-reason.js";
import { repoTools } from "./repo-tools.js";
import type { ReviewSession } from "./review-session.js";
import type { ToolLimits } from "./tools/tool-limits.js";
import { verifyFindings } from "./verify-findings.js";
import type { Workspace } from "./workspace.js";

export interface ReviewLensOptions {
  model: LanguageModel;
  /** Model id from the app config: what the board shows. */
  modelId: string;
  /** Provider name from the app config. */
  provider: string;
  lens: LensDefinition;
  prompt: ReviewPromptInput;
  /** The PR head snapshot the tools (or the agent CLI) read. */
  workspace: Workspace;
  limits: Pick<ReviewConfig, "maxTurns" | "timeoutSeconds" | "verify">;
  signal?: AbortSignal | undefined;
  onEvent?: ((event: LensEvent) => void) | undefined;
  /**
   * Called with the error behind a failed lens, for the log: the report and the
   * board carry only its public reason (publicFailureReason).
   */
  onFailure?: ((error: unknown) => void) | undefined;
  clock?: Clock | undefined;
  /** The time a tool-free turn gets once the budget is spent; default a tenth of the timeout, 5 to 60 s. */
  graceSeconds?: number | undefined;
  /** Tool turns of the verification pass; default 6. */
  verifyMaxTurns?: number | undefined;
  /** Tool calls honoured per model turn; default 16. */
  maxToolCallsPerTurn?: number | undefined;
  /** Tool output one review may take in all, in bytes; default 400 KB (about 100k tokens). */
  maxToolOutputBytes?: number | undefined;
  toolLimits?: Partial<ToolLimits> | undefined;
}

const DEFAULT_VERIFY_MAX_TURNS = 6;
const DEFAULT_MAX_TOOL_CALLS_PER_TURN = 16;
const DEFAULT_MAX_TOOL_OUTPUT_BYTES = 400 * 1024;

/**
 * One model reviewing one pull request through one lens, from the prompt to
 * the lens report: the tool loop (or an agent CLI run), finalize, the parse
 * with one repair turn, the verification pass and the events along the way.
 * Never throws: a failure is a "failed" report with a publishable reason,
 * a cancellation a "cancelled" one; neither is ever reported clean.
 */
export async function reviewLens(options: ReviewLensOptions): Promise<LensReport> {
  const clock = options.clock ?? systemClock;
  const signal = options.signal ?? new AbortController().signal;
  const { limits } = options;
  const source = { model: options.modelId, provider: options.provider, lens: options.lens.id };
  const emit = (body: LensEventBody) => {
    try {
      options.onEvent?.({ ...source, at: clock.now(), ...body } as LensEvent);
    } catch {
      // A broken status board must not break the review.
    }
  };
  let turns = 0;
  const usage: Usage = { inputTokens: 0, outputTokens: 0 };
  // What the verify pass spends, counted apart so a round's cost can say where it went.
  let verifyUsage: Usage | undefined;
  const startedAt = clock.now();
  let verifyStartedAt: number | undefined;
  const deadline = startDeadline(clock, limits.timeoutSeconds * 1000, signal);
  const session: ReviewSession = {
    prompt: { lens: options.lens, input: options.prompt },
    tools: repoTools(options.workspace, options.toolLimits, options.prompt.changes),
    changes: options.prompt.changes,
    workspaceRoot: options.workspace.root,
    workspaceCopies: options.workspace.sharedCopies,
    clock,
    signal,
    deadline,
    timeoutSeconds: limits.timeoutSeconds,
    maxTurns: limits.maxTurns,
    graceMs: (options.graceSeconds ?? Math.min(60, Math.max(5, limits.timeoutSeconds / 10))) * 1000,
    maxToolCallsPerTurn: options.maxToolCallsPerTurn ?? DEFAULT_MAX_TOOL_CALLS_PER_TURN,
    toolOutputBudget: {
      remainingBytes: options.maxToolOutputBytes ?? DEFAULT_MAX_TOOL_OUTPUT_BYTES,
    },
    verifyMaxTurns: options.verifyMaxTurns ?? DEFAULT_VERIFY_MAX_TURNS,
    reviewTools: { attempted: 0, failed: 0 },
    onTurn: () => {
      turns++;
      emit({ type: "running", turn: turns });
    },
    onTool: (name, summary) => emit({ type: "tool", turn: turns, name, summary }),
    onUsage: (used) => {
      addUsage(usage, used);
      if (verifyUsage !== undefined) addUsage(verifyUsage, used);
    },
  };
  const report = (fields: Partial<LensReport> & Pick<LensReport, "outcome">): LensReport => ({
    ...source,
    verdict: null,
    statedVerdict: null,
    text: "",
    findings: [],
    dropped: [],
    failure: null,
    turns,
    usage: { ...usage },
    ...(verifyUsage === undefined ? {} : { verifyUsage: { ...verifyUsage } }),
    durationMs: clock.now() - startedAt,
    ...(verifyStartedAt === undefined ? {} : { verifyDurationMs: clock.now() - verifyStartedAt }),
    recovered: false,
    ...fields,
  });

  try {
    signal.throwIfAborted();
    // Every call is charged as it is sent, so a lens aborted or failed mid-call still counts it.
    const model = wrapLanguageModel(options.model, meterModelCalls(session.onUsage));
    const review =
      model.kind === "chat" ? await chatReview(model, session) : await agentReview(model, session);
    refuseBlindReview(session.reviewTools, review.text);
    let text = withRejectedNote(review.text, review.rejected);
    let findings: LensFinding[] = review.findings;
    let dropped: LensFinding[] = [];
    let statedVerdict = review.statedVerdict;
    let recovered = review.recovered;
    if (limits.verify && findings.length > 0) {
      emit({ type: "verifying", findings: findings.length });
      verifyUsage = { inputTokens: 0, outputTokens: 0 };
      verifyStartedAt = clock.now();
      const verified = await verifyFindings(model, session, { ...review, text });
      ({ text, statedVerdict } = verified);
      findings = verified.surviving;
      dropped = verified.dropped;
      recovered ||= verified.recovered;
    }
    const verdict = deriveVerdict(findings);
    emit({ type: "done", verdict, findings: findings.length, dropped: dropped.length });
    return report({
      outcome: "done",
      verdict,
      statedVerdict,
      text,
      findings,
      dropped,
      overLimit: review.overLimit,
      recovered,
    });
  } catch (error) {
    if (signal.aborted) {
      const reason = publicCancelReason(signal.reason);
      emit({ type: "cancelled", reason });
      return report({ outcome: "cancelled", failure: reason });
    }
    const reason = publicFailureReason(error);
    options.onFailure?.(error);
    emit({ type: "failed", reason });
    return report({
      outcome: "failed",
      failure: reason,
      text: error instanceof LensFailure ? keptFailureText(error.text) : "",
    });
  } finally {
    deadline.dispose();
  }
}

/**
 * An agent CLI that called tools and got only errors back (a sandbox that breaks its shell, a
 * workspace it cannot read) reviewed the diff alone while believing it had looked: its lens is
 * not "done", whatever it answered. A chat model's tools are Gadfly's own: an error there is the
 * model asking wrong (a bad path, malformed arguments), answered and not counted here.
 */
function refuseBlindReview(tools: ToolCallTally, text: string): void {
  if (tools.attempted === 0 || tools.failed < tools.attempted) return;
  throw new LensFailure(
    `every tool call of the review failed (${tools.failed} of ${tools.attempted}): the reviewer could read no file of the repository`,
    text,
  );
}

/**
 * A failed lens keeps what the model answered, up to the size a lens answer may have: an agent
 * CLI may print megabytes, and this text is stored, rendered and printed.
 */
function keptFailureText(text: string): string {
  if (text.length <= MAX_ANSWER_CHARS) return text;
  return `${text.slice(0, MAX_ANSWER_CHARS)}\n\n_… cut: the answer was ${text.length} characters long; the first ${MAX_ANSWER_CHARS} are kept._`;
}

/** Rejected entries named in the lens text; beyond this they are counted (the block is model output). */
const MAX_NAMED_REJECTIONS = 10;

/** Entries of the block we could not read are named, not silently lost. */
function withRejectedNote(text: string, rejected: readonly string[]): string {
  if (rejected.length === 0) return text;
  const named = rejected.slice(0, MAX_NAMED_REJECTIONS).join("; ");
  const more =
    rejected.length > MAX_NAMED_REJECTIONS
      ? ` and ${rejected.length - MAX_NAMED_REJECTIONS} more`
      : "";
  return `${text}\n\n_Gadfly could not read ${rejected.length} entr${rejected.length === 1 ? "y" : "ies"} of the findings block: ${named}${more}._`;
}
