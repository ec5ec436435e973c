import { UNCATEGORIZED } from "./score-categories.js";
import type { EntryResult, JudgeFigures, ScopeKind, SpendFigures } from "./score-entry.js";

export interface ScopeSummary {
  kind: ScopeKind;
  name: string;
  matched: number;
  found: number;
  gold: number;
  /** Null when there is nothing to divide by (no finding, no gold comment). */
  precision: number | null;
  recall: number | null;
  f1: number | null;
}

export interface EvalSummary {
  window: number;
  /** The entries the run was to review (the dataset, or its first `--limit`). */
  entries: number;
  /** Of them, not reviewed because the run stopped early (`stopped`). */
  notRun: number;
  reviewed: number;
  /** Entries not scored, each with why: never left out silently. */
  failed: { id: string; error: string }[];
  /** Gold comments of the reviewed entries (the recall's denominator). */
  gold: number;
  scopes: ScopeSummary[];
  failedLenses: Record<string, number>;
  spend: { total: SpendFigures; models: Record<string, SpendFigures> };
  /** The judge's figures over the reviewed entries (`--judge`), or null without one. */
  judge: JudgeFigures | null;
  /** Why the run stopped before the dataset's end (a budget cap), or null. */
  stopped: string | null;
}

/** Adds the entries' counts (micro-average: every gold comment and every finding weighs the same). */
export function summarizeResults(
  results: readonly EntryResult[],
  window: number,
  stopped: string | null,
  planned: number = results.length,
): EvalSummary {
  const reviewed = results.filter((result) => result.status === "reviewed");
  const scopes = new Map<string, ScopeSummary>();
  const failedLenses: Record<string, number> = {};
  const models: Record<string, SpendFigures> = {};
  let total = noSpend();
  for (const result of results) {
    total = addSpend(total, result.spend.total);
    for (const [model, spend] of Object.entries(result.spend.models)) {
      models[model] = addSpend(models[model] ?? noSpend(), spend);
    }
  }
  for (const result of reviewed) {
    for (const score of result.scores) {
      const key = `${score.kind}\u0000${score.name}`;
      const sum = scopes.get(key) ?? {
        ...score,
        matched: 0,
        found: 0,
        gold: 0,
        precision: null,
        recall: null,
        f1: null,
      };
      scopes.set(key, {
        ...sum,
        matched: sum.matched + score.matched,
        found: sum.found + score.found,
        gold: sum.gold + score.gold,
      });
    }
    for (const [model, count] of Object.entries(result.failedLenses)) {
      failedLenses[model] = (failedLenses[model] ?? 0) + count;
    }
  }
  return {
    window,
    entries: planned,
    notRun: planned - results.length,
    reviewed: reviewed.length,
    failed: results
      .filter((result) => result.status === "failed")
      .map((result) => ({ id: result.id, error: result.error ?? "failed" })),
    gold: reviewed.reduce((sum, result) => sum + result.gold, 0),
    scopes: withoutLoneCategory([...scopes.values()]).map(withRates),
    failedLenses,
    spend: { total, models },
    judge: judgeTotal(reviewed),
    stopped,
  };
}

/** A dataset whose gold comments name no category has nothing to show per category. */
function withoutLoneCategory(scopes: ScopeSummary[]): ScopeSummary[] {
  const categories = scopes.filter((scope) => scope.kind === "category");
  return categories.every((scope) => scope.name === UNCATEGORIZED)
    ? scopes.filter((scope) => scope.kind !== "category")
    : scopes;
}

function withRates(scope: ScopeSummary): ScopeSummary {
  const precision = scope.found === 0 ? null : scope.matched / scope.found;
  const recall = scope.gold === 0 ? null : scope.matched / scope.gold;
  const f1 =
    precision === null || recall === null
      ? null
      : precision + recall === 0
        ? 0
        : (2 * precision * recall) / (precision + recall);
  return { ...scope, precision, recall, f1 };
}

/** The judge's figures added up; a few of its problems kept, so the report can say why. */
function judgeTotal(results: readonly EntryResult[]): JudgeFigures | null {
  let sum: JudgeFigures | null = null;
  for (const { judge } of results) {
    if (judge === undefined) continue;
    sum =
      sum === null
        ? { ...judge, problems: [...judge.problems] }
        : {
            model: sum.model,
            pairs: sum.pairs + judge.pairs,
            cached: sum.cached + judge.cached,
            same: sum.same + judge.same,
            different: sum.different + judge.different,
            unreadable: sum.unreadable + judge.unreadable,
            failed: sum.failed + judge.failed,
            spend: addSpend(sum.spend, judge.spend),
            problems: [...sum.problems, ...judge.problems].slice(0, MAX_JUDGE_PROBLEMS),
          };
  }
  return sum;
}

/** Problems of the judge the report lists: enough to see why, never a wall. */
export const MAX_JUDGE_PROBLEMS = 5;

function noSpend(): SpendFigures {
  return { inputTokens: 0, outputTokens: 0, costUsd: 0, durationMs: 0 };
}

function addSpend(a: SpendFigures, b: SpendFigures): SpendFigures {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    costUsd: a.costUsd === null || b.costUsd === null ? null : a.costUsd + b.costUsd,
    durationMs: a.durationMs + b.durationMs,
  };
}
