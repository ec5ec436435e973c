import type { LensDefinition, LensEvent, LensFailover, LensReport } from "../agent/index.js";
import { publicFailureReason, reviewLens, type Workspace } from "../agent/index.js";
import type { ModelConfig, ProviderConfig } from "../config/index.js";
import type { LanguageModel, Message, Redactor, Usage } from "../llm/index.js";
import {
  addUsage,
  createLanguageModel,
  failoverReason,
  guardEmptyCompletions,
} from "../llm/index.js";
import type { Clock } from "../time/index.js";
import { recordTranscript } from "./record-transcript.js";
import type { RoundJournal, RoundRuntime, RoundSubject } from "./round-request.js";

export interface ReviewLensChainInput {
  /** The planned model: the board's row and the report's `model`, whoever answers. */
  model: ModelConfig;
  /** The models to go on on, in order, after `model` (its `fallbacks`, resolved). */
  fallbacks: readonly ModelConfig[];
  lensId: string;
  lens: LensDefinition;
  providers: ReadonlyMap<string, ProviderConfig>;
  subject: Pick<RoundSubject, "plan">;
  runtime: Pick<RoundRuntime, "env" | "record" | "createModel" | "signal">;
  journal: Pick<RoundJournal, "onLensError" | "onTranscript">;
  workspace: Workspace;
  prompt: Parameters<typeof reviewLens>[0]["prompt"];
  onEvent: (event: LensEvent) => void;
  clock: Clock;
  /** The round's redactor (shared: the lenses' transcripts repeat the same long texts). */
  redact: Redactor;
}

/**
 * One lens of one planned model, along its failover chain: the model, then each fallback in
 * turn while the one before failed the lens with an error its retries could not fix or answered
 * empty twice (failoverReason). Each hop is a `failover` event on the planned model's row; a
 * failure that is not the last model's is not shown as one. The report stays the planned
 * model's (its board row, its stored key), with `answeredBy` naming the fallback that answered
 * and `failovers` the hops: agreement counts the model that answered.
 */
export async function reviewLensChain(input: ReviewLensChainInput): Promise<LensReport> {
  const { model, lensId, runtime, clock } = input;
  const chain = [model, ...input.fallbacks];
  const failovers: LensFailover[] = [];
  // What the models failed over from spent is the lens's too: the caps count it.
  const spentBefore: Usage = { inputTokens: 0, outputTokens: 0 };
  for (const [index, candidate] of chain.entries()) {
    const next = chain[index + 1];
    let failure: unknown;
    const report = await attempt(input, candidate, next !== undefined, (error) => {
      failure = error;
    });
    const reason =
      next === undefined || report.outcome !== "failed" || runtime.signal.aborted
        ? undefined
        : failoverReason(failure);
    if (next === undefined || reason === undefined) {
      return withChain(withSpent(report, spentBefore), candidate, model, failovers);
    }
    addUsage(spentBefore, report.usage);
    failovers.push({ from: candidate.id, to: next.id, reason });
    input.onEvent({
      model: model.id,
      provider: model.provider,
      lens: lensId,
      at: clock.now(),
      type: "failover",
      from: candidate.id,
      to: next.id,
      reason,
    });
  }
  // Unreachable: the chain has at least the planned model, and its last member returns.
  throw new Error("empty failover chain");
}

/**
 * What a fallback's session of `plannedModelId`'s lens is named for recording and replay
 * (`security-fallback-for-glm-5.2:cloud`): its own review of the lens is another session.
 */
export function fallbackSessionLens(lensId: string, plannedModelId: string): string {
  return `${lensId}-fallback-for-${plannedModelId}`;
}

/** One model's try at the lens; `onFailure` gets the error behind a failed report. */
async function attempt(
  input: ReviewLensChainInput,
  candidate: ModelConfig,
  hasNext: boolean,
  onFailure: (error: unknown) => void,
): Promise<LensReport> {
  const { model, lensId, runtime, journal } = input;
  const provider = input.providers.get(candidate.provider);
  const fail = (error: unknown): LensReport => {
    onFailure(error);
    journal.onLensError?.(candidate.id, lensId, error);
    return failedReport(model, lensId, publicFailureReason(error));
  };
  if (provider === undefined) return fail(new Error(`unknown provider ${candidate.provider}`));
  // A fallback's try is a session of its own: recorded and replayed under its own name, never
  // over the fallback's own review of this lens.
  const session = candidate.id === model.id ? lensId : fallbackSessionLens(lensId, model.id);
  let languageModel: LanguageModel;
  try {
    languageModel = build(candidate, provider, session, runtime);
  } catch (error) {
    return fail(error);
  }
  // Only where there is somewhere to go: a lone model's second empty answer is the lens's own
  // failure (no findings block), as it always was.
  const guarded = hasNext ? guardEmptyCompletions(languageModel) : languageModel;
  const recorder = recordTranscript(guarded, input.redact);
  let failure: unknown;
  const report = await reviewLens({
    model: recorder.model,
    modelId: model.id,
    provider: model.provider,
    lens: input.lens,
    prompt: input.prompt,
    workspace: input.workspace,
    limits: input.subject.plan.review,
    onFailure: (error) => {
      failure = error;
      onFailure(error);
      journal.onLensError?.(candidate.id, lensId, error);
    },
    signal: runtime.signal,
    // A failure the next model takes over is a hop, not the lens's end.
    onEvent: (event) => {
      if (event.type === "failed" && hasNext && failoverReason(failure) !== undefined) return;
      input.onEvent(event);
    },
    clock: input.clock,
  });
  const transcript: Message[] = recorder.transcript();
  if (journal.onTranscript !== undefined && transcript.length > 0) {
    await journal.onTranscript(model.id, lensId, transcript);
  }
  return report;
}

function build(
  candidate: ModelConfig,
  provider: ProviderConfig,
  lensId: string,
  runtime: ReviewLensChainInput["runtime"],
): LanguageModel {
  return (
    runtime.createModel?.(candidate, provider, lensId) ??
    createLanguageModel({
      model: candidate,
      provider,
      env: runtime.env,
      lens: lensId,
      record: runtime.record,
    })
  );
}

/** The report with what the chain's earlier models spent added to its usage. */
function withSpent(report: LensReport, spentBefore: Usage): LensReport {
  if (spentBefore.inputTokens === 0 && spentBefore.outputTokens === 0) return report;
  const usage = { ...report.usage };
  addUsage(usage, spentBefore);
  return { ...report, usage };
}

function withChain(
  report: LensReport,
  answering: ModelConfig,
  planned: ModelConfig,
  failovers: readonly LensFailover[],
): LensReport {
  if (failovers.length === 0) return report;
  return {
    ...report,
    failovers: [...failovers],
    ...(answering.id === planned.id || report.outcome !== "done"
      ? {}
      : { answeredBy: answering.id }),
  };
}

/** A lens that could not start (no provider, no model): no text, no findings, the reason. */
export function failedReport(model: ModelConfig, lens: string, failure: string): LensReport {
  return {
    model: model.id,
    provider: model.provider,
    lens,
    outcome: "failed",
    verdict: null,
    statedVerdict: null,
    text: "",
    findings: [],
    dropped: [],
    failure,
    turns: 0,
    usage: { inputTokens: 0, outputTokens: 0 },
    recovered: false,
  };
}
