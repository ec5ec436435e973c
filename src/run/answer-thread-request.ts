import { answerQuestion, type Workspace } from "../agent/index.js";
import type { PreviousFinding } from "../consensus/index.js";
import {
  addUsage,
  type LanguageModel,
  meterModelCalls,
  type Usage,
  wrapLanguageModel,
} from "../llm/index.js";
import type { Clock } from "../time/index.js";
import type { ChallengeRecord } from "./cross-examine.js";
import { recheckFindings, recheckSessionLens } from "./recheck-findings.js";
import type { ReviewRoundOptions } from "./review-round.js";
import type { ReviewerLimiter } from "./reviewer-limiter.js";
import { sessionModelFor } from "./session-model-for.js";

/** What someone asked in a finding's thread. */
export type ThreadRequest = { kind: "question"; question: string } | { kind: "recheck" };

export interface ThreadRequestOptions
  extends Pick<ReviewRoundOptions, "plan" | "providers" | "env" | "createModel"> {
  request: ThreadRequest;
  /** The finding, as its PR's last completed round saved it. */
  finding: PreviousFinding;
  /** The pull request's current head. */
  workspace: Workspace;
  settings: { maxTurns: number; timeoutSeconds: number };
  limiter: ReviewerLimiter;
  signal: AbortSignal;
  clock: Clock;
  /** Model text is redacted before anything shows it. */
  clean: (text: string) => string;
}

/** One re-checking model's say, for the reply. */
export interface RecheckSay {
  model: string;
  verdict: "confirm" | "refute" | "unsure";
  reason: string;
  checked?: string;
}

export type ThreadRequestResult = (
  | { kind: "answer"; model: string; answer: string }
  | { kind: "recheck"; result: "still-there" | "fixed" | "unsure"; answers: RecheckSay[] }
  | { kind: "failed"; reason: string }
) & {
  /** Every call charged as it was sent (meterModelCalls), per model: what the budgets count. */
  spent: { model: string; usage: Usage }[];
};

/** The lens name a thread question's model is built with: one recorded session per finding. */
export function questionSessionLens(fingerprint: string): string {
  return `thread-${fingerprint}`;
}

/**
 * Answers one `@gadfly` request on a finding's thread, GitHub-free. A question goes to the
 * first model of the plan that reported the finding (none configured now: it fails, no other
 * model speaks for it). `recheck` is the re-check a push gets (recheckFindings: every reporting
 * model of the plan, fixed only when all of them refute it now), for this one finding.
 */
export async function answerThreadRequest(
  options: ThreadRequestOptions,
): Promise<ThreadRequestResult> {
  const spent = new Map<string, Usage>();
  const metered = (modelId: string, model: LanguageModel): LanguageModel =>
    wrapLanguageModel(
      model,
      meterModelCalls((usage) => {
        const sum = spent.get(modelId) ?? { inputTokens: 0, outputTokens: 0 };
        addUsage(sum, usage);
        spent.set(modelId, sum);
      }),
    );
  const spentList = () => [...spent].map(([model, usage]) => ({ model, usage }));
  const planned = options.plan.models.map((model) => model.id);
  const reporters = (options.finding.detail?.models ?? []).filter((id) => planned.includes(id));
  const reporter = reporters[0];
  if (reporter === undefined) {
    return {
      kind: "failed",
      reason:
        "no model that reported this finding can answer here (not configured now, or kept from fork PRs)",
      spent: [],
    };
  }
  const modelFor = (lensOf: (fingerprint: string) => string) => {
    const build = sessionModelFor(options, lensOf);
    return (modelId: string, fingerprint: string) => metered(modelId, build(modelId, fingerprint));
  };
  if (options.request.kind === "recheck") {
    const { answers, result } = await recheckOne(options, modelFor(recheckSessionLens));
    return { kind: "recheck", result, answers, spent: spentList() };
  }
  const outcome = await answerQuestion({
    model: modelFor(questionSessionLens)(reporter, options.finding.fingerprint),
    claim: claimOf(options.finding),
    question: options.request.question,
    workspace: options.workspace,
    maxTurns: options.settings.maxTurns,
    timeoutSeconds: options.settings.timeoutSeconds,
    signal: options.signal,
    clock: options.clock,
  });
  if (outcome.outcome !== "answered") {
    return { kind: "failed", reason: outcome.reason, spent: spentList() };
  }
  return {
    kind: "answer",
    model: reporter,
    answer: options.clean(outcome.text),
    spent: spentList(),
  };
}

async function recheckOne(
  options: ThreadRequestOptions,
  modelFor: (modelId: string, fingerprint: string) => LanguageModel,
): Promise<{ result: "still-there" | "fixed" | "unsure"; answers: RecheckSay[] }> {
  const { finding } = options;
  const rechecked = await recheckFindings({
    findings: [{ finding, line: finding.line, endLine: finding.detail?.endLine ?? finding.line }],
    models: options.plan.models.map((model) => model.id),
    modelFor,
    workspace: options.workspace,
    settings: { ...options.settings, maxRechecks: 1 },
    limiter: options.limiter,
    signal: options.signal,
    clock: options.clock,
    cleanReason: options.clean,
  });
  const carried = rechecked.carried[0];
  const result =
    carried === undefined ? "fixed" : carried.recheck === "confirmed" ? "still-there" : "unsure";
  return { result, answers: rechecked.records.map(sayOf) };
}

function sayOf(record: ChallengeRecord): RecheckSay {
  if (record.outcome !== "answered") {
    return { model: record.model, verdict: "unsure", reason: record.reason };
  }
  return {
    model: record.model,
    verdict: record.verdict,
    reason: record.reason,
    ...(record.checked === null ? {} : { checked: record.checked }),
  };
}

function claimOf(finding: PreviousFinding) {
  return {
    lens: finding.detail?.lens ?? "correctness",
    file: finding.file,
    line: finding.line,
    endLine: finding.detail?.endLine ?? null,
    severity: finding.severity,
    title: finding.title,
    body: finding.detail?.body ?? "",
  };
}
