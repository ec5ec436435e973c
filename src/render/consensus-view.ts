import { agreementOf, type Cluster, type Consensus } from "../consensus/index.js";
import { SEVERITY_RANK } from "../findings/index.js";
import { type ComparisonView, comparisonView } from "./comparison-view.js";
import { type CoverageView, coverageView } from "./coverage-view.js";
import { type CodeLinks, type FindingRow, findingRow, handoffFinding } from "./finding-row.js";
import { allFindingsHandoff } from "./fix-handoff.js";
import { type HeldBackView, heldBackView } from "./held-back-view.js";
import type { LensMetadata } from "./lens-metadata.js";
import { type ModelView, modelView, noVerdictLabel } from "./model-view.js";
import { type SummaryView, summaryView } from "./summary-view.js";
import { roundUsageLine } from "./usage-line.js";

export interface ConsensusViewOptions {
  lenses?: Readonly<Record<string, LensMetadata>>;
  /** Where each finding was shown (inline comment URL), by fingerprint. */
  findingUrls?: Readonly<Record<string, string>>;
  /** URL of each model's overflow comment, by model id, once posted. */
  modelCommentUrls?: Readonly<Record<string, string>>;
  /** Per-model detail in this comment, or in one comment per model. */
  detail: "inline" | "overflow";
  /** Where the reviewed code is on the web: each row's Where links to its lines. */
  code?: CodeLinks;
  /** At most this many items per table or list. */
  rowLimit: number;
  /**
   * At most this many rows (agreed first, then single-model) carry their expandable details and
   * hand-off, and the all-findings hand-off covers at most this many: what a long comment
   * gives up before it gives up rows. Default: every row.
   */
  detailLimit?: number;
  /** The formatted `<!-- gadfly-meta -->` line, if any. */
  meta: string | null;
  /** False for a replayed run: its durations are not model time, so the footer shows none. */
  timed?: boolean;
  /**
   * Rows already built for this consensus, by cluster and whether with details: a comment that
   * searches for the most rows that fit builds each row once, not once per try.
   */
  rowCache?: Map<Cluster, { bare?: FindingRow; detailed?: FindingRow }>;
}

/** A table's row with whether it carries its details (see `detailLimit`). */
export interface TableRow extends FindingRow {
  /** 1-based, across both tables: the details below a table are numbered the same. */
  number: number;
  details: boolean;
}

interface RowTable {
  rows: TableRow[];
  /** Rows below the table that carry details; empty when none does. */
  detailed: TableRow[];
  /** Some row's Models cell carries a cross-examination mark: the legend is shown. */
  challenged: boolean;
  count: number;
  omitted: number;
}

export interface ConsensusView extends CoverageView, HeldBackView {
  meta: string | null;
  /** The summary section (one model's description of the change); null when it is off. */
  summary: SummaryView | null;
  modelCount: number;
  noModel: boolean;
  /** Lens reviews that did not complete (failed or cancelled), and all of them: a partial review says so. */
  incompleteLenses: number;
  totalLenses: number;
  /** Lens reviews never started (a rule kept their model from the change): partial too. */
  skippedLenses: number;
  /** Each model with skipped lenses, and why (the first skipped lens's reason). */
  skippedModels: { id: string; reason: string }[];
  /** The budget cap that kept lenses from starting, in words; null when none was reached. */
  budgetReached: string | null;
  budgetSkippedCrossExamination: boolean;
  /** The downshift a large change got, in words; null when the round ran its whole plan. */
  downshift: string | null;
  /** The settings it came from (ours, trusted): `budget.downshift`, `filters.maxSize`. */
  downshiftBy: string;
  /** An incremental round's light step (small, or nothing to review), in words; null otherwise. */
  step: string | null;
  verdict: string;
  findingCount: number;
  multiModelCount: number;
  multiModel: RowTable;
  /** One prompt for a coding agent covering the open (undismissed) agreed findings; null if none. */
  handoff: string | null;
  handoffCount: number;
  singleModel: RowTable;
  /** Clusters refuted by a majority of their challengers: in neither table, listed apart. */
  disputed: RowTable;
  comparison: ComparisonView | null;
  /** Findings held back as like earlier dismissals in the repository (`learn: repo`). */
  heldBackByDismissals: number;
  /** The round's spend in one line (footer); null when it was not counted. */
  usage: string | null;
  inlineDetail: ModelView[] | null;
  overflowDetail: OverflowLink[] | null;
  overflowOmitted: number;
}

interface OverflowLink {
  id: string;
  provider: string;
  verdict: string;
  url: string | null;
}

/** What consensus-comment.hbs (and the check run) render; text is raw, templates escape it. */
export function consensusView(consensus: Consensus, options: ConsensusViewOptions): ConsensusView {
  const { rowLimit } = options;
  const urls = options.findingUrls ?? {};
  let detailsLeft = options.detailLimit ?? Number.POSITIVE_INFINITY;
  let number = 0;
  const row = (cluster: Cluster, details = false): FindingRow => {
    const cached = options.rowCache?.get(cluster) ?? {};
    const kind = details ? "detailed" : "bare";
    const built =
      cached[kind] ?? findingRow(cluster, consensus.modelCount, urls, options.code, details);
    if (options.rowCache !== undefined) options.rowCache.set(cluster, { ...cached, [kind]: built });
    return built;
  };
  const rows = (place: (cluster: Cluster) => boolean, detailed = true): RowTable => {
    const clusters = rankedForReading(consensus.clusters.filter(place));
    const shown = clusters.slice(0, rowLimit).map((cluster): TableRow => {
      const details = detailed && detailsLeft > 0;
      if (details) detailsLeft -= 1;
      number += 1;
      return { ...row(cluster, details), number, details };
    });
    return {
      rows: shown,
      detailed: shown.filter((entry) => entry.details),
      challenged: shown.some((entry) => entry.modelsCell !== entry.agreement),
      count: clusters.length,
      omitted: Math.max(0, clusters.length - rowLimit),
    };
  };
  // A confirmation on cross-examination is agreement; a disputed cluster is in neither table.
  const agreed = (c: Cluster): boolean => c.disputed !== true && agreementOf(c) >= 2;
  const open = rankedForReading(
    consensus.clusters.filter((c) => agreed(c) && c.dismissed === undefined),
  );
  const handedOff = open.slice(0, Math.min(rowLimit, options.detailLimit ?? open.length));
  const multiModel = rows(agreed);
  const singleModel = rows((c) => c.disputed !== true && agreementOf(c) < 2);
  const modelUrls = options.modelCommentUrls ?? {};
  const lensOptions = options.lenses === undefined ? {} : { lenses: options.lenses };
  return {
    meta: options.meta,
    modelCount: consensus.modelCount,
    // Nothing reviewable changed: no model ran, and that is not a failed review.
    noModel: consensus.modelCount === 0 && consensus.budget?.stepEmpty !== true,
    incompleteLenses: consensus.models
      .flatMap((model) => model.lenses)
      .filter((lens) => lens.outcome === "failed" || lens.outcome === "cancelled").length,
    totalLenses: consensus.models.reduce((total, model) => total + model.lenses.length, 0),
    skippedLenses: consensus.models
      .flatMap((model) => model.lenses)
      .filter((lens) => lens.outcome === "skipped").length,
    skippedModels: consensus.models.flatMap((model) => {
      const skipped = model.lenses.find((lens) => lens.outcome === "skipped");
      return skipped === undefined ? [] : [{ id: model.model, reason: skipped.failure ?? "" }];
    }),
    budgetReached: consensus.budget?.reached ?? null,
    budgetSkippedCrossExamination: consensus.budget?.crossExaminationSkipped === true,
    downshift: consensus.budget?.downshift ?? null,
    downshiftBy: consensus.budget?.downshiftBy ?? "budget.downshift",
    step: consensus.budget?.step ?? null,
    verdict: consensus.verdict,
    findingCount: consensus.clusters.length,
    multiModelCount: multiModel.count,
    multiModel,
    handoff:
      handedOff.length === 0
        ? null
        : allFindingsHandoff(
            handedOff.map((cluster) => handoffFinding(cluster, consensus.modelCount)),
            { headSha: options.code?.headSha ?? null },
          ),
    handoffCount: handedOff.length,
    singleModel,
    disputed: rows((c) => c.disputed === true, false),
    heldBackByDismissals: consensus.heldBackByDismissals ?? 0,
    summary: summaryView(consensus, { timed: options.timed !== false }),
    ...coverageView(consensus, rowLimit),
    ...heldBackView(consensus, rowLimit),
    usage:
      consensus.usage === undefined
        ? null
        : roundUsageLine(consensus.usage, { timed: options.timed !== false }),
    comparison:
      consensus.comparison === null
        ? null
        : comparisonView(
            consensus.comparison,
            consensus.modelCount,
            rowLimit,
            urls,
            consensus.models.some((model) => model.lenses.some((lens) => lens.outcome !== "done")),
          ),
    inlineDetail:
      options.detail === "inline"
        ? consensus.models.map((model) => modelView(model, lensOptions))
        : null,
    overflowDetail:
      options.detail === "overflow"
        ? consensus.models.slice(0, rowLimit).map((model) => ({
            id: model.model,
            provider: model.provider,
            verdict: model.verdict ?? noVerdictLabel(model.lenses),
            url: Object.hasOwn(modelUrls, model.model) ? (modelUrls[model.model] ?? null) : null,
          }))
        : null,
    overflowOmitted:
      options.detail === "overflow" ? Math.max(0, consensus.models.length - rowLimit) : 0,
  };
}

/**
 * The order people scan in: severity first, then agreement, then the consensus's own rank, so a
 * high finding two models agree on is never below a low one all of them flagged.
 */
export function rankedForReading(clusters: readonly Cluster[]): Cluster[] {
  return clusters
    .map((cluster, index) => ({ cluster, index }))
    .sort(
      (a, b) =>
        SEVERITY_RANK[b.cluster.severity] - SEVERITY_RANK[a.cluster.severity] ||
        agreementOf(b.cluster) - agreementOf(a.cluster) ||
        a.index - b.index,
    )
    .map((entry) => entry.cluster);
}
