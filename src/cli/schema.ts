import { z } from "zod";
import { Confidence, Severity, Verdict } from "../findings/index.js";
import { NOT_REVIEWED_REASONS } from "../run/index.js";

/*
 * The `--format json` report, version 1. This file is its definition (json-report.md explains
 * it for users). Changing a field's meaning or removing one needs a new schemaVersion; adding an
 * optional field does not. Nothing here runs when the report is written: formatJson builds a
 * value of the inferred type, and the tests check the output against this schema.
 */

const FindingLocation = {
  /** Path relative to the repository root, forward slashes. */
  file: z.string().min(1),
  line: z.number().int().positive(),
  /** Equals `line` for a one-line finding. */
  endLine: z.number().int().positive(),
};

/** A finding as one lens of one model reported it. */
export const JsonLensFinding = z.strictObject({
  ...FindingLocation,
  severity: Severity,
  confidence: Confidence,
  title: z.string(),
  body: z.string(),
});
export type JsonLensFinding = z.infer<typeof JsonLensFinding>;

export const JsonLensReport = z.strictObject({
  lens: z.string(),
  /** `skipped`: never started (a rule kept the model from the change); not clean. */
  outcome: z.enum(["done", "failed", "cancelled", "skipped"]),
  /** Null unless the outcome is "done". */
  verdict: Verdict.nullable(),
  /** The VERDICT line as the model wrote it. */
  statedVerdict: z.string().nullable(),
  /** Findings that survived the verify pass. */
  findings: z.array(JsonLensFinding),
  /** Findings the verify pass dropped. */
  dropped: z.array(JsonLensFinding),
  /** Valid findings beyond the limit of 50 per lens, dropped unread (the most severe are kept). */
  overLimit: z.number().int().nonnegative(),
  /** Why the lens failed, was cancelled or was skipped. */
  failure: z.string().nullable(),
  /**
   * The error behind a failed lens as the App logs it (an agent CLI's stderr tail, redacted,
   * at most 1,000 characters); null otherwise. Optional: absent from reports written before it.
   */
  error: z.string().nullable().optional(),
  turns: z.number().int().nonnegative(),
  /** True when the final answer was recovered from an earlier turn. */
  recovered: z.boolean(),
  usage: z.strictObject({
    inputTokens: z.number().int().nonnegative(),
    outputTokens: z.number().int().nonnegative(),
  }),
  /** The fallback model that answered the lens after this model failed it; null when it answered itself. */
  answeredBy: z.string().nullable(),
  /** Each hop along the model's failover chain, in order: from, to, and the short reason. */
  failovers: z.array(z.strictObject({ from: z.string(), to: z.string(), reason: z.string() })),
  /** The lens's published text (markdown). */
  text: z.string(),
});
export type JsonLensReport = z.infer<typeof JsonLensReport>;

export const JsonModel = z.strictObject({
  id: z.string(),
  provider: z.string(),
  /** Null when no lens of the model completed: such a model does not count. */
  verdict: Verdict.nullable(),
  lenses: z.array(JsonLensReport),
});
export type JsonModel = z.infer<typeof JsonModel>;

/** A finding's proposed replacement for its lines, as checked before it is shown (src/suggestions). */
export const JsonSuggestion = z.strictObject({
  /** `passed`: it applies to exactly these head lines and was checked; `failed`: `note` says why. */
  status: z.enum(["passed", "failed"]),
  /** The head lines it replaces. */
  ...FindingLocation,
  /** The replacement, one entry per line, without line endings ([] deletes the lines). */
  lines: z.array(z.string()),
  /** The head's lines it replaces ([] when they could not be read). */
  original: z.array(z.string()),
  /** The models whose findings proposed this very replacement. */
  supporters: z.array(z.string()).min(1),
  /** The tree-sitter grammar the resulting file parsed with; null when not parsed (see `note`). */
  grammar: z.string().nullable(),
  /** Why it failed, or why its syntax was not checked; null when it passed a parse. */
  note: z.string().nullable(),
});
export type JsonSuggestion = z.infer<typeof JsonSuggestion>;

/** One finding of the consensus: a cluster of what one or several models reported. */
export const JsonFinding = z.strictObject({
  /** 1 for the most important. */
  rank: z.number().int().positive(),
  /** Stable across runs for the same problem in the same file (not tied to line numbers). */
  fingerprint: z.string(),
  ...FindingLocation,
  severity: Severity,
  confidence: Confidence,
  title: z.string(),
  body: z.string(),
  /** The representative finding's lens. */
  lens: z.string(),
  /** Every lens among the members, the representative's first. */
  lenses: z.array(z.string()).min(1),
  /** Models that flagged it, in config order. */
  models: z.array(z.string()).min(1),
  /**
   * Models that agree on it out of `modelCount`, e.g. "3/4": those that flagged it and
   * those that confirmed it on cross-examination.
   */
  agreement: z.string().regex(/^\d+\/\d+$/),
  /** Other models that confirmed it when it was put to them (cross-examination). */
  confirmedBy: z.array(z.string()),
  /** Refuted by a majority of the models that answered its challenge: not agreed, shown apart. */
  disputed: z.boolean(),
  /** Every answer it got on cross-examination (empty when it was not challenged). */
  challenges: z.array(
    z.strictObject({
      model: z.string(),
      verdict: z.enum(["confirm", "refute", "unsure"]),
      /** The challenger's evidence: model text. */
      reason: z.string(),
      /** `path:line` it checked, or null. */
      checked: z.string().nullable(),
    }),
  ),
  /** Every finding of the cluster, the representative first. */
  members: z.array(JsonLensFinding.extend({ model: z.string(), lens: z.string() })).min(1),
  /** Its checked suggestion, null when none was proposed (absent from reports before it was added). */
  suggestion: JsonSuggestion.nullable().optional(),
});
export type JsonFinding = z.infer<typeof JsonFinding>;

export const JsonNotReviewed = z.strictObject({
  path: z.string(),
  reason: z.enum(NOT_REVIEWED_REASONS),
});

export const JsonComparison = z.strictObject({
  round: z.number().int().positive(),
  previousHeadSha: z.string(),
  /** Fingerprints of findings new in this round. */
  fresh: z.array(z.string()),
  /** Fingerprints of findings already reported in the previous round. */
  stillOpen: z.array(z.string()),
  /** Findings of the previous round that are gone. */
  fixed: z.array(
    z.strictObject({
      fingerprint: z.string(),
      title: z.string(),
      file: z.string(),
      line: z.number().int(),
      severity: Severity,
      url: z.string().nullable(),
    }),
  ),
});

/** Tokens, time and estimated cost of some model work, as the providers reported the tokens. */
export const JsonUsageFigures = z.strictObject({
  /** Every input token, cache reads and writes included. */
  inputTokens: z.number().int().nonnegative(),
  /** Of `inputTokens`, read from the provider's prompt cache. */
  cachedInputTokens: z.number().int().nonnegative(),
  /** Of `inputTokens`, written to the provider's prompt cache (Anthropic). */
  cacheWriteTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  /** Model time in milliseconds, summed over sessions; null when replayed (no model ran). */
  durationMs: z.number().int().nonnegative().nullable(),
  /** US dollars from the models' `price`; null when a model counted in it has none. */
  costUsd: z.number().nonnegative().nullable(),
});
export type JsonUsageFigures = z.infer<typeof JsonUsageFigures>;

/** Review, verify and cross-examination (re-checks of carried findings included) apart. */
export const JsonUsagePhases = z.strictObject({
  review: JsonUsageFigures,
  verify: JsonUsageFigures,
  crossExamination: JsonUsageFigures,
});

/** What the run spent, per model and phase, and in total. */
export const JsonUsage = z.strictObject({
  models: z.array(
    z.strictObject({
      model: z.string(),
      /** Whether the config gives this model a price (else its costs are null). */
      priced: z.boolean(),
      phases: JsonUsagePhases,
      total: JsonUsageFigures,
    }),
  ),
  phases: JsonUsagePhases,
  total: JsonUsageFigures,
});
export type JsonUsage = z.infer<typeof JsonUsage>;

/** What the change does, in one model's words (not a verdict), or why there is none. */
export const JsonSummary = z.discriminatedUnion("state", [
  z.strictObject({
    state: z.literal("written"),
    model: z.string(),
    lines: z.array(z.string()),
    groups: z.array(z.strictObject({ label: z.string(), files: z.array(z.string()) })),
    /** Lines left out because they claimed a verdict ("approved", "LGTM"). */
    verdictLinesDropped: z.number().int().nonnegative(),
  }),
  z.strictObject({
    state: z.literal("unavailable"),
    model: z.string().nullable(),
    reason: z.string(),
  }),
]);
export type JsonSummary = z.infer<typeof JsonSummary>;

export const JsonReport = z.strictObject({
  schemaVersion: z.literal(1),
  tool: z.strictObject({ name: z.literal("gadfly"), version: z.string() }),
  /** The head reviewed: a commit SHA, or `WORKTREE-` and a content hash for the working tree. */
  headSha: z.string(),
  /** The commit the diff starts from; null when unknown. */
  baseSha: z.string().nullable(),
  verdict: Verdict,
  /** Models with at least one lens done: the N of "k/N" agreement. */
  modelCount: z.number().int().nonnegative(),
  models: z.array(JsonModel),
  /** Ranked: agreement, then severity, then file and line. */
  findings: z.array(JsonFinding),
  notReviewed: z.array(JsonNotReviewed),
  /** Null unless an earlier round of the same change was known. */
  comparison: JsonComparison.nullable(),
  /** What the run spent (absent from reports written before it was added). */
  usage: JsonUsage.optional(),
  /** Null when the summary is off (`summary: true` turns it on; absent from older reports). */
  summary: JsonSummary.nullable().optional(),
});
export type JsonReport = z.infer<typeof JsonReport>;
