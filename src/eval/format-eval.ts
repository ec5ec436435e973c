import type { SpendFigures } from "./score-entry.js";
import type { EvalSummary, ScopeSummary } from "./summarize-results.js";

export type EvalFormat = "text" | "markdown" | "json";

const HEADER = [
  "scope",
  "found",
  "hits",
  "gold",
  "precision",
  "recall",
  "F1",
  "tokens",
  "cost",
  "time",
];

/** The report of `gadfly eval`: one table (text or markdown), or the summary as JSON. */
export function formatEval(
  summary: EvalSummary,
  format: EvalFormat,
  options: { timed: boolean } = { timed: true },
): string {
  // A replay's durations are the replay's own, not model time: none is shown.
  const shown = options.timed ? summary : untimed(summary);
  if (format === "json")
    return `${JSON.stringify({ format: "gadfly-eval-report", version: 1, timed: options.timed, ...shown }, null, 2)}\n`;
  const rows = shown.scopes.map((scope) => row(scope, spendOf(shown, scope)));
  const total = shown.spend.total;
  const lines = [
    `${summary.reviewed} of ${summary.entries} pull requests reviewed, ${summary.gold} gold comments; a hit is a finding on the same path within ${summary.window} lines of a gold comment's range, each gold comment matched once.`,
    "",
    ...(format === "markdown" ? markdownTable(rows) : textTable(rows)),
    "",
    `Spent: ${tokens(total)} tokens, ${cost(total.costUsd)}, ${options.timed ? `${seconds(total.durationMs)} of model time` : "no model time (replayed)"}.`,
    ...judgeLines(summary),
    ...Object.entries(summary.failedLenses).map(
      ([model, count]) =>
        `${model}: ${count} lens${count === 1 ? "" : "es"} did not complete (their gold comments count as missed).`,
    ),
    ...summary.failed.map((entry) => `Not scored: ${entry.id}: ${entry.error}`),
    ...(summary.stopped === null
      ? []
      : [`Stopped early: ${summary.stopped}; ${summary.notRun} not reviewed.`]),
  ];
  return `${lines.join("\n")}\n`;
}

/** Spend is per model: a lens or the consensus is the work of every model. */
function spendOf(summary: EvalSummary, scope: ScopeSummary): SpendFigures | null {
  return scope.kind === "model" ? (summary.spend.models[scope.name] ?? null) : null;
}

/**
 * A category is the dataset's text: control characters and runs of space become one space and
 * it is cut to MAX_CATEGORY_CHARS, so a hostile one cannot break a row or flood the table.
 */
export const MAX_CATEGORY_CHARS = 40;

function categoryName(name: string): string {
  const flat = name.replace(/[\p{Cc}\p{Cf}\p{Z}\s]+/gu, " ").trim();
  return flat.length > MAX_CATEGORY_CHARS ? `${flat.slice(0, MAX_CATEGORY_CHARS - 1)}…` : flat;
}

function scopeName(scope: ScopeSummary): string {
  if (scope.kind === "model" || scope.kind === "lens") return `${scope.kind} ${scope.name}`;
  // Per category: the consensus against that category's gold comments.
  if (scope.kind === "category") return `consensus · ${categoryName(scope.name)}`;
  return scope.kind;
}

function row(scope: ScopeSummary, spend: SpendFigures | null): string[] {
  const name = scopeName(scope);
  return [
    name,
    String(scope.found),
    String(scope.matched),
    String(scope.gold),
    rate(scope.precision),
    rate(scope.recall),
    rate(scope.f1),
    spend === null ? "" : tokens(spend),
    spend === null ? "" : cost(spend.costUsd),
    spend === null || Number.isNaN(spend.durationMs) ? "" : seconds(spend.durationMs),
  ];
}

function untimed(summary: EvalSummary): EvalSummary {
  const strip = (spend: SpendFigures): SpendFigures => ({ ...spend, durationMs: Number.NaN });
  return {
    ...summary,
    spend: {
      total: strip(summary.spend.total),
      models: Object.fromEntries(
        Object.entries(summary.spend.models).map(([m, s]) => [m, strip(s)]),
      ),
    },
  };
}

function textTable(rows: string[][]): string[] {
  const all = [HEADER, ...rows];
  const widths = HEADER.map((_, column) =>
    Math.max(...all.map((cells) => (cells[column] ?? "").length)),
  );
  return all.map((cells) =>
    cells
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0),
      )
      .join("  ")
      .trimEnd(),
  );
}

function markdownTable(rows: string[][]): string[] {
  // Model and lens ids come from the config, but a pipe in one would break the table.
  const cells = (values: string[]) =>
    `| ${values.map((v) => v.replaceAll("|", "\\|")).join(" | ")} |`;
  return [
    cells(HEADER),
    `|${HEADER.map((_, i) => (i === 0 ? " --- " : " ---: ")).join("|")}|`,
    ...rows.map(cells),
  ];
}

/** The judge's line: what it decided, what could not count, what it cost (not in "Spent" above). */
function judgeLines(summary: EvalSummary): string[] {
  const judge = summary.judge;
  if (judge === null) return [];
  const asked = judge.pairs - judge.cached;
  return [
    `Judge ${judge.model}: ${judge.pairs} location matches judged (${asked} asked, ${judge.cached} from its cache): ${judge.same} the same problem, ${judge.different} not; ${judge.unreadable} unreadable and ${judge.failed} failed answers count as no match. Spent ${tokens(judge.spend)} tokens, ${cost(judge.spend.costUsd)}.`,
    ...judge.problems.map((problem) => `  judge: ${terminalLine(problem)}`),
  ];
}

/** Problems hold provider and model text: one line, no control characters. */
function terminalLine(text: string): string {
  return text
    .replace(/[\p{Cc}\p{Cf}\s]+/gu, " ")
    .trim()
    .slice(0, 200);
}

function rate(value: number | null): string {
  return value === null ? "–" : value.toFixed(3);
}

function tokens(spend: SpendFigures): string {
  return new Intl.NumberFormat("en-US").format(spend.inputTokens + spend.outputTokens);
}

function cost(usd: number | null): string {
  return usd === null ? "cost unknown (a model has no price)" : `$${usd.toFixed(4)}`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
