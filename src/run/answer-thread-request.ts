import { answerQuestion, type Workspace } from "../agent/index.js";
import type { PreviousFinding } from "../consensus/index.js";
import {
  addUsage,
  createRedactor,
  type LanguageModel,
  meterModelCalls,
  type Usage,
  wrapLanguageModel,
} from "../llm/index.js";
import { systemClock } from "../time/index.js";
import { collectSecrets } from "./collect-secrets.js";
import type { ChallengeRecord, SessionRun } from "./cross-examine.js";
import { recheckFindings, recheckSessionLens } from "./recheck-findings.js";
import type { RoundRuntime, RoundSubject } from "./round-request.js";
import { sessionModelFor } from "./session-model-for.js";

/** What someone asked in a finding's thread. */
export type ThreadRequest = { kind: "question"; question: string } | { kind: "recheck" };

/** One request on a finding's thread, and where it is answered. */
export interface ThreadAsk {
  request: ThreadRequest;
  /** The finding, as its PR's last completed round saved it. */
  finding: PreviousFinding;
  /** The pull request's current head. */
  workspace: Workspace;
  settings: SessionRun["settings"];
}

/** What answering takes of a round's runtime: keys, models, the slots, the stop signal, time. */
type ThreadRuntime = Pick<
  RoundRuntime,
  "env" | "secrets" | "createModel" | "limiter" | "signal" | "clock"
>;

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
  ask: ThreadAsk,
  subject: Pick<RoundSubject, "plan" | "providers">,
  runtime: ThreadRuntime,
): Promise<ThreadRequestResult> {
  // Model text is redacted before anything shows it.
  const clean = createRedactor(
    runtime.secrets ?? collectSecrets({ env: runtime.env, providers: subject.providers }),
  );
  const clock = runtime.clock ?? systemClock;
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
  const planned = subject.plan.models.map((model) => model.id);
  const reporters = (ask.finding.detail?.models ?? []).filter((id) => planned.includes(id));
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
    const build = sessionModelFor(subject, runtime, lensOf);
    return (modelId: string, fingerprint: string) => metered(modelId, build(modelId, fingerprint));
  };
  const session: SessionRun = {
    modelFor: modelFor(recheckSessionLens),
    workspace: ask.workspace,
    settings: ask.settings,
    limiter: runtime.limiter,
    signal: runtime.signal,
    clock,
    cleanReason: clean,
  };
  if (ask.request.kind === "recheck") {
    const { answers, result } = await recheckOne(ask.finding, planned, session);
    return { kind: "recheck", result, answers, spent: spentList() };
  }
  const outcome = await answerQuestion({
    model: modelFor(questionSessionLens)(reporter, ask.finding.fingerprint),
    claim: claimOf(ask.finding),
    question: ask.request.question,
    workspace: ask.workspace,
    maxTurns: ask.settings.maxTurns,
    timeoutSeconds: ask.settings.timeoutSeconds,
    signal: runtime.signal,
    clock,
  });
  if (outcome.outcome !== "answered") {
    return { kind: "failed", reason: outcome.reason, spent: spentList() };
  }
  return {
    kind: "answer",
    model: reporter,
    answer: clean(outcome.text),
    spent: spentList(),
  };
}

async function recheckOne(
  finding: PreviousFinding,
  models: readonly string[],
  session: SessionRun,
): Promise<{ result: "still-there" | "fixed" | "unsure"; answers: RecheckSay[] }> {
  const rechecked = await recheckFindings(
    {
      findings: [{ finding, line: finding.line, endLine: finding.detail?.endLine ?? finding.line }],
      models,
      maxRechecks: 1,
    },
    session,
  );
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
