import { setMaxListeners } from "node:events";
import { join } from "node:path";
import type { UsageFigures } from "../accounting/index.js";
import type { LensDefinition } from "../agent/index.js";
import type { AppConfig, ReviewPlan } from "../config/index.js";
import { selectInline } from "../consensus/index.js";
import type { EntryResult, EvalEntry } from "../eval/index.js";
import { judgedPairs, scoreEntry } from "../eval/index.js";
import { createNodeFetch } from "../http/index.js";
import {
  createInMemoryModelCallLimiter,
  limitedModelFactory,
  modelCallIdleTimeoutMs,
  providerCap,
} from "../llm/index.js";
import { createReviewerLimiter, reviewChange } from "../run/index.js";
import type { detectIsolation } from "../sandbox/index.js";
import { systemClock } from "../time/index.js";
import { collectLocalChange, localChangeSource } from "./collect-local-change.js";
import type { EvalJudge } from "./eval-judge.js";
import { replayEverything } from "./replay-everything.js";

export interface EvalEntryContext {
  config: AppConfig;
  plan: ReviewPlan;
  lenses: LensDefinition[];
  env: Record<string, string | undefined>;
  window: number;
  recordDir: string | null;
  replayDir: string | null;
  isolation: Awaited<ReturnType<typeof detectIsolation>> | undefined;
  /** What the run has spent before this entry: the config's daily caps bound the whole run. */
  spentBefore: () => Promise<UsageFigures>;
  signal: AbortSignal;
  /** Turns an error into one line safe to print (secrets redacted). */
  describe: (error: unknown) => string;
  /** `--judge`: confirms each location match; null: location only. */
  judge: EvalJudge | null;
}

/**
 * Reviews one entry as `gadfly review --base --head` would in its clone, then scores it. A clone,
 * a revision or a round that fails gives a `failed` result saying why: the run goes on.
 */
export async function reviewEvalEntry(
  entry: EvalEntry,
  context: EvalEntryContext,
): Promise<EntryResult> {
  let local: Awaited<ReturnType<typeof collectLocalChange>>;
  try {
    local = await collectLocalChange({
      repoPath: entry.repoDir,
      base: entry.base,
      head: entry.head,
      env: context.env,
    });
  } catch (error) {
    return failed(entry, context, `${entry.repoDir}: ${context.describe(error)}`);
  }
  const config =
    context.replayDir === null
      ? context.config
      : replayEverything(context.config, join(context.replayDir, entry.id));
  const record =
    context.recordDir === null ? undefined : { dir: join(context.recordDir, entry.id) };
  const modelCalls = createInMemoryModelCallLimiter(providerCap(config));
  const httpFetch = createNodeFetch({ idleTimeoutMs: modelCallIdleTimeoutMs(config) });
  setMaxListeners(0, context.signal);
  try {
    const { reports, consensus } = await reviewChange({
      subject: {
        plan: context.plan,
        providers: config.providers,
        lenses: context.lenses,
        round: 1,
      },
      change: { source: localChangeSource(local, []) },
      runtime: {
        env: context.env,
        signal: context.signal,
        limiter: createReviewerLimiter(context.plan.review.concurrency),
        clock: systemClock,
        dailySpend: context.spentBefore,
        record,
        createModel: limitedModelFactory({
          env: context.env,
          modelCalls,
          isolation: context.isolation,
          record,
          fetch: httpFetch,
        }),
      },
    });
    if (consensus.modelCount === 0) {
      const reasons = [...new Set(reports.map((report) => report.failure ?? report.outcome))];
      return failed(
        entry,
        context,
        `no model completed the review (${reasons.slice(0, 3).join("; ")})`,
      );
    }
    const judged =
      context.judge === null
        ? null
        : await context.judge.judge(
            judgedPairs({ gold: entry.gold, reports, consensus, window: context.window }),
            context.signal,
          );
    return scoreEntry({
      id: entry.id,
      url: entry.url,
      gold: entry.gold,
      reports,
      consensus,
      ...(judged === null ? {} : { accepts: judged.accepts, judge: judged.figures }),
      inline: selectInline(consensus.clusters, context.plan.publish).selected,
      window: context.window,
      models: context.plan.models.map((model) => model.id),
      lenses: context.plan.lenses,
    });
  } catch (error) {
    return failed(entry, context, context.describe(error));
  } finally {
    void modelCalls.close();
    httpFetch.close();
    await local.cleanup();
  }
}

function failed(entry: EvalEntry, context: EvalEntryContext, error: string): EntryResult {
  const none = { inputTokens: 0, outputTokens: 0, costUsd: 0, durationMs: 0 };
  return {
    format: "gadfly-eval-result",
    id: entry.id,
    url: entry.url,
    status: "failed",
    error,
    window: context.window,
    models: context.plan.models.map((model) => model.id),
    lenses: context.plan.lenses,
    gold: entry.gold.length,
    scores: [],
    failedLenses: {},
    spend: { total: none, models: {} },
  };
}
