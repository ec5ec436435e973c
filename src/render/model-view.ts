import type { LensReport } from "../agent/index.js";
import type { ModelSummary } from "../consensus/index.js";
import { MAX_FINDINGS_PER_LENS, removeFindingsBlocks } from "../findings/index.js";
import { type LensMetadata, lensMetadata } from "./lens-metadata.js";
import { modelCommentMarker } from "./markers.js";
import { tidyModelText } from "./tidy-model-text.js";

/** A lens's text as shown: possibly cut, with how much was cut. */
export interface LensCut {
  text: string;
  omitted: number;
}

export interface LensView {
  emoji: string;
  title: string;
  /** The verdict when done, else `⚠️ failed` / `🚫 cancelled` / `⏭️ skipped`. */
  outcome: string;
  /** Why it did not complete (for a skipped lens: `skipped: <reason>`). */
  failure: string | null;
  /** Never started: said as a skip, not as a failure. */
  skipped: boolean;
  recovered: boolean;
  /** Findings the verify pass dropped. */
  dropped: number;
  /** Findings beyond the per-lens limit, dropped before verification. */
  overLimit: number;
  /** That limit (MAX_FINDINGS_PER_LENS), for the note. */
  findingLimit: number;
  text: string;
  /** Characters of `text` cut to fit the comment (0: shown whole). */
  omitted: number;
}

export interface ModelView {
  id: string;
  provider: string;
  verdict: string;
  marker: string;
  lensCount: number;
  /** `security`, `performance (failed)`, … */
  lensList: string[];
  lenses: LensView[];
  /** Lenses left out entirely because even their headings would not fit. */
  lensesOmitted: number;
}

export interface ModelViewOptions {
  lenses?: Readonly<Record<string, LensMetadata>>;
  /** Per lens (by index), the text to show instead of the whole. */
  cuts?: ReadonlyArray<LensCut | undefined>;
  /** Show only the first n lenses. */
  lensLimit?: number;
}

/** One model's part of the per-model detail; text is raw, templates escape it. */
export function modelView(model: ModelSummary, options: ModelViewOptions = {}): ModelView {
  const shown = model.lenses.slice(0, options.lensLimit ?? model.lenses.length);
  return {
    id: model.model,
    provider: model.provider,
    verdict: model.verdict ?? noVerdictLabel(model.lenses),
    marker: modelCommentMarker(model.model),
    lensCount: model.lenses.length,
    lensList: model.lenses.map((lens) =>
      lens.outcome === "done" ? lens.lens : `${lens.lens} (${lens.outcome})`,
    ),
    lenses: shown.map((lens, index) => lensView(lens, options.cuts?.[index], options.lenses)),
    lensesOmitted: model.lenses.length - shown.length,
  };
}

function lensView(
  lens: LensReport,
  cut: LensCut | undefined,
  metadata: Readonly<Record<string, LensMetadata>> | undefined,
): LensView {
  const { emoji, title } = lensMetadata(lens.lens, metadata);
  return {
    emoji,
    title,
    outcome: outcomeLabel(lens),
    failure: failureText(lens),
    skipped: lens.outcome === "skipped",
    recovered: lens.recovered,
    dropped: lens.dropped.length,
    overLimit: lens.overLimit ?? 0,
    findingLimit: MAX_FINDINGS_PER_LENS,
    text: cut?.text ?? publishedLensText(lens),
    omitted: cut?.omitted ?? 0,
  };
}

/** A model without a verdict: every lens skipped says so; otherwise none completed. */
export function noVerdictLabel(lenses: readonly LensReport[]): string {
  return lenses.length > 0 && lenses.every((lens) => lens.outcome === "skipped")
    ? "skipped"
    : "no lens completed";
}

function failureText(lens: LensReport): string | null {
  if (lens.outcome === "done") return null;
  if (lens.outcome === "skipped")
    return lens.failure === null ? "skipped" : `skipped: ${lens.failure}`;
  return lens.failure ?? lens.outcome;
}

function outcomeLabel(lens: LensReport): string {
  if (lens.outcome === "failed") return "⚠️ failed";
  if (lens.outcome === "cancelled") return "🚫 cancelled";
  if (lens.outcome === "skipped") return "⏭️ skipped";
  return lens.verdict ?? "done";
}

/**
 * A lens's text as the PR shows it: the model's prose without the `gadfly-findings` JSON (its
 * findings are already in the tables and inline), without its `VERDICT:` lines (the lens's
 * summary line says the verdict) and with no heading as large as the comment's title.
 */
export function publishedLensText(lens: LensReport): string {
  return tidyModelText(removeFindingsBlocks(lens.text), { dropVerdicts: true });
}
