import {
  addUsageFigures,
  budgetReached,
  type ChallengeSpend,
  roundUsage,
} from "../accounting/index.js";
import type { ChangeSummary, LensReport } from "../agent/index.js";
import { publicFailureReason, summarizePullRequest } from "../agent/index.js";
import type { Usage } from "../llm/index.js";
import { createRedactor } from "../llm/index.js";
import { systemClock } from "../time/index.js";
import type { ChangeSet } from "./change-set.js";
import { collectSecrets } from "./collect-secrets.js";
import type { RoundRequest } from "./round-request.js";
import { sessionModelFor } from "./session-model-for.js";

/** The lens a summary's model is built with, for providers and recordings that key on it. */
export const SUMMARY_LENS = "summary";

/** The summary one model wrote of the change, or why there is none; its spend either way. */
export type SummaryRecord = (
  | { outcome: "written"; model: string; summary: ChangeSummary }
  | { outcome: "failed" | "cancelled"; model: string; reason: string }
  | { outcome: "skipped"; model: null; reason: string }
) & { usage?: Usage; durationMs?: number };

/** A summary's time: the answer to one bounded prompt, not a tool session. */
const SUMMARY_TIMEOUT_SECONDS = 120;

/**
 * The round's summary of the change (on unless the plan says `summary: false`): one call to the
 * plan's first model that completed a lens, on what the reviewers were given, under the same
 * limiter. Skipped when no model completed, when a budget cap was reached (during the lenses, or
 * by what the round spent until now), or when off (null). Never throws: a failed call is a
 * record with its reason.
 */
export async function runSummaryPhase(
  request: RoundRequest<ChangeSet>,
  ended: {
    reports: readonly LensReport[];
    /** The round's other sessions (challenges): their spend counts against the caps. */
    sessions: readonly ChallengeSpend[];
    /** The cap the lenses reached, in words; null when none was. */
    reached: string | null;
  },
): Promise<SummaryRecord | null> {
  const { subject, change, runtime } = request;
  const { reports } = ended;
  if (subject.plan.summary !== true) return null;
  if (runtime.signal.aborted)
    return { outcome: "skipped", model: null, reason: "the round stopped" };
  const cap = ended.reached ?? (await capReached(request, reports, ended.sessions));
  if (cap !== null) {
    return { outcome: "skipped", model: null, reason: `a budget cap was reached (${cap})` };
  }
  const writer = subject.plan.models.find((model) =>
    reports.some((report) => report.model === model.id && report.outcome === "done"),
  );
  if (writer === undefined) {
    return { outcome: "skipped", model: null, reason: "no model completed its review" };
  }
  const clock = runtime.clock ?? systemClock;
  const redact = createRedactor(
    runtime.secrets ?? collectSecrets({ env: runtime.env, providers: subject.providers }),
  );
  let startedAt: number | null = null;
  const outcome = await runtime.limiter
    .run(async () => {
      startedAt = clock.now();
      return summarizePullRequest({
        model: sessionModelFor(subject, runtime, () => SUMMARY_LENS)(writer.id, ""),
        input: {
          title: change.title,
          description: change.description,
          files: change.files,
          packedDiff: change.packedDiff,
        },
        cwd: change.workspaceDir,
        timeoutSeconds: SUMMARY_TIMEOUT_SECONDS,
        signal: runtime.signal,
        clock,
      });
    }, runtime.signal)
    .catch((error: unknown) => ({
      outcome: runtime.signal.aborted ? ("cancelled" as const) : ("failed" as const),
      reason: runtime.signal.aborted
        ? "cancelled"
        : `could not start: ${publicFailureReason(error)}`,
      usage: { inputTokens: 0, outputTokens: 0 },
    }));
  const cost = {
    usage: { ...outcome.usage },
    durationMs: startedAt === null ? 0 : Math.max(0, clock.now() - startedAt),
  };
  if (outcome.outcome !== "written") {
    return { outcome: outcome.outcome, model: writer.id, reason: redact(outcome.reason), ...cost };
  }
  // Model text: no secret it read may reach a comment.
  const summary: ChangeSummary = {
    ...outcome.summary,
    lines: outcome.summary.lines.map(redact),
    groups: outcome.summary.groups.map((group) => ({ ...group, label: redact(group.label) })),
  };
  return { outcome: "written", model: writer.id, summary, ...cost };
}

/** A cap the round's spend until now reached (the round's, the installation's today), or null. */
async function capReached(
  request: RoundRequest<ChangeSet>,
  reports: readonly LensReport[],
  sessions: readonly ChallengeSpend[],
): Promise<string | null> {
  const { plan } = request.subject;
  const budget = plan.budget;
  if (budget === undefined) return null;
  const round = roundUsage({ reports, challenges: sessions, pricing: plan.pricing }).total;
  const daily = budget.dailyTokens !== undefined || budget.dailyCostUsd !== undefined;
  const dailySpend = request.runtime.dailySpend;
  const today =
    daily && dailySpend !== undefined ? addUsageFigures(await dailySpend(), round) : undefined;
  return budgetReached(budget, { round, ...(today === undefined ? {} : { today }) });
}
