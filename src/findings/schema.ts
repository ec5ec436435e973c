import { z } from "zod";

export const Severity = z.enum(["high", "medium", "low", "nit"]);
export type Severity = z.infer<typeof Severity>;

export const Confidence = z.enum(["low", "medium", "high"]);
export type Confidence = z.infer<typeof Confidence>;

/**
 * The longest `suggestion` kept: a local fix is a few lines, and everything after the parse
 * (the check applies it to the head file and parses the result) grows with it.
 */
export const MAX_SUGGESTION_CHARS = 8_000;

/** One finding as a lens reported it, after normalisation. `endLine` equals `line` for one-line findings. */
export const LensFinding = z.object({
  file: z.string().min(1),
  line: z.number().int().positive(),
  endLine: z.number().int().positive(),
  severity: Severity,
  confidence: Confidence,
  title: z.string().min(1),
  body: z.string(),
  /**
   * Set only on an "Outside my lens" finding (see outside-lens.ts): the lens the
   * problem belongs to, which is not the lens whose answer reported it. Absent:
   * the finding belongs to the lens of the report that carries it.
   */
  lens: z.string().min(1).optional(),
  /** Set with `lens`: the lens whose answer reported it, so the finding keeps its origin. */
  reportedBy: z.string().min(1).optional(),
  /**
   * The replacement text the model proposes for lines `line..endLine` of the head file (no
   * fences, no diff markers; "" deletes the lines). Unchecked here: src/suggestions checks it
   * against the head file before anything publishes it as a suggestion.
   */
  suggestion: z.string().max(MAX_SUGGESTION_CHARS).optional(),
});
export type LensFinding = z.infer<typeof LensFinding>;

/** The three verdicts we publish, per lens, per model and overall. */
export const Verdict = z.enum(["No material issues found", "Minor issues", "Significant issues"]);
export type Verdict = z.infer<typeof Verdict>;

/** The info string of the fenced block a lens answer ends with. */
export const FINDINGS_FENCE_INFO = "gadfly-findings";

/** Severity order, most severe first; used for ranking and verdicts. */
export const SEVERITY_RANK: Record<Severity, number> = { high: 3, medium: 2, low: 1, nit: 0 };
export const CONFIDENCE_RANK: Record<Confidence, number> = { high: 2, medium: 1, low: 0 };
