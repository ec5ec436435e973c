import type { RoundUsage } from "../accounting/index.js";
import type { LensReport } from "../agent/index.js";
import type { Cluster, Consensus } from "../consensus/index.js";
import type { GoldComment } from "./eval-entry.js";
import type { JudgedFinding } from "./judge-prompt.js";
import { type Accepts, matchesLocation, matchLocations } from "./match-locations.js";
import { scoreCategories } from "./score-categories.js";

/**
 * What is scored: one model's findings, one lens's (every model), the consensus, the inline
 * set, and the consensus against one gold category's comments (score-categories.ts).
 */
export type ScopeKind = "model" | "lens" | "consensus" | "inline" | "category";

export interface ScopeScore {
  kind: ScopeKind;
  /** The model or lens id; "all" for the consensus and the inline set; a category's name. */
  name: string;
  matched: number;
  found: number;
  gold: number;
}

export interface SpendFigures {
  inputTokens: number;
  outputTokens: number;
  /** Null when a model without a price spent tokens. */
  costUsd: number | null;
  durationMs: number;
}

/** What the judge model (`--judge`) did for one entry, or for the run. */
export interface JudgeFigures {
  model: string;
  /** Pairs at the right place put to the judge (asked, or answered from its cache). */
  pairs: number;
  /** Of them, answered from the cache: no call, no cost. */
  cached: number;
  /** Its verdicts: the same problem (a hit), or not. */
  same: number;
  different: number;
  /** Answers without a readable block: counted as no match, never as one. */
  unreadable: number;
  /** Calls that failed (the provider's error, said in `problems`): counted as no match. */
  failed: number;
  /** What the calls cost (cached answers cost nothing). */
  spend: SpendFigures;
  /** Why some pairs were not judged (unreadable, failed): at most a few, one line each. */
  problems: string[];
}

/** One entry's outcome: a line of the results file, and what the report adds up. */
export interface EntryResult {
  format: "gadfly-eval-result";
  id: string;
  url: string | null;
  /** `failed`: not scored (the clone, the change or every model failed), said with `error`. */
  status: "reviewed" | "failed";
  error?: string;
  /** What it was measured under: a resumed run must match. */
  window: number;
  models: string[];
  lenses: string[];
  gold: number;
  scores: ScopeScore[];
  /** Lenses that did not complete, per model: their misses count, and the report says how many. */
  failedLenses: Record<string, number>;
  spend: { total: SpendFigures; models: Record<string, SpendFigures> };
  /** Present when a judge confirmed the location matches (`--judge`). */
  judge?: JudgeFigures;
}

export interface ScoreEntryInput {
  id: string;
  url: string | null;
  gold: readonly GoldComment[];
  reports: readonly LensReport[];
  consensus: Consensus;
  /** The plan's models and lenses, as the results file records them. */
  models: readonly string[];
  lenses: readonly string[];
  /** The clusters the inline review would post (selectInline under the config's policy). */
  inline: readonly Cluster[];
  window: number;
  /** The judge's verdicts: a pair at the right place is a hit only if it names the same problem. */
  accepts?: Accepts<JudgedFinding>;
  judge?: JudgeFigures;
}

/** Scores one reviewed entry by location (matchLocations), per model, per lens, consensus and inline. */
export function scoreEntry(input: ScoreEntryInput): EntryResult {
  const { gold, window } = input;
  const { accepts } = input;
  const score = (kind: ScopeKind, name: string, found: JudgedFinding[]): ScopeScore => ({
    kind,
    name,
    ...matchLocations(found, gold, window, accepts),
  });
  const models = unique(input.reports.map((report) => report.model));
  const lenses = unique(input.reports.map((report) => report.lens));
  const findingsOf = (keep: (report: LensReport) => boolean): JudgedFinding[] =>
    input.reports.filter(keep).flatMap((report) => report.findings.map(judgedFinding));
  const failedLenses: Record<string, number> = {};
  for (const report of input.reports) {
    if (report.outcome !== "done")
      failedLenses[report.model] = (failedLenses[report.model] ?? 0) + 1;
  }
  return {
    format: "gadfly-eval-result",
    id: input.id,
    url: input.url,
    status: "reviewed",
    window,
    models: [...input.models],
    lenses: [...input.lenses],
    gold: gold.length,
    scores: [
      ...models.map((model) =>
        score(
          "model",
          model,
          findingsOf((r) => r.model === model),
        ),
      ),
      ...lenses.map((lens) =>
        score(
          "lens",
          lens,
          findingsOf((r) => r.lens === lens),
        ),
      ),
      score("consensus", "all", input.consensus.clusters.map(location)),
      score("inline", "all", input.inline.map(location)),
      ...scoreCategories(input.consensus.clusters.map(location), gold, window, accepts).map(
        ({ category, ...counts }): ScopeScore => ({ kind: "category", name: category, ...counts }),
      ),
    ],
    failedLenses,
    spend: spendOf(input.consensus.usage),
    ...(input.judge === undefined ? {} : { judge: input.judge }),
  };
}

/** A cluster is where it is shown and posted: its representative's line (and its text). */
function location(cluster: Cluster): JudgedFinding {
  return judgedFinding(cluster.representative);
}

function judgedFinding(finding: {
  file: string;
  line: number;
  title: string;
  body: string;
}): JudgedFinding {
  return { path: finding.file, line: finding.line, title: finding.title, body: finding.body };
}

/**
 * Every pair the judge is to be asked about: a finding of any scope (each model's, each
 * cluster's representative) at the right place for a gold comment, once each.
 */
export function judgedPairs(
  input: Pick<ScoreEntryInput, "gold" | "reports" | "consensus" | "window">,
): { finding: JudgedFinding; gold: GoldComment }[] {
  const found = [
    ...input.reports.flatMap((report) => report.findings.map(judgedFinding)),
    ...input.consensus.clusters.map(location),
  ];
  const pairs = new Map<string, { finding: JudgedFinding; gold: GoldComment }>();
  for (const finding of found) {
    input.gold.forEach((gold, index) => {
      if (!matchesLocation(finding, gold, input.window)) return;
      const key = JSON.stringify([index, finding.path, finding.line, finding.title, finding.body]);
      if (!pairs.has(key)) pairs.set(key, { finding, gold });
    });
  }
  return [...pairs.values()];
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}

function spendOf(usage: RoundUsage | undefined): EntryResult["spend"] {
  const figures = (f: RoundUsage["total"] | undefined): SpendFigures => ({
    inputTokens: f?.inputTokens ?? 0,
    outputTokens: f?.outputTokens ?? 0,
    costUsd: f === undefined ? 0 : f.costUsd,
    durationMs: f?.durationMs ?? 0,
  });
  return {
    total: figures(usage?.total),
    models: Object.fromEntries((usage?.models ?? []).map((m) => [m.model, figures(m.total)])),
  };
}
