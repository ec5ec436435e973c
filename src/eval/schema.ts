import { z } from "zod";

/** A gold comment's line range, as given: some datasets write it backwards (see loadDataset). */
const Line = z.number().int().positive();

/** Gadfly's own dataset format (README: "gadfly eval"): a list of pull requests with gold comments. */
export const NativeGold = z.strictObject({
  path: z.string().min(1),
  /** `right` (the head, the default) or `left` (the base: a removed line). */
  side: z.enum(["left", "right"]).default("right"),
  fromLine: Line,
  toLine: Line.optional(),
  category: z.string().optional(),
  body: z.string().optional(),
});

export const NativeEntry = z.strictObject({
  /** Unique in the dataset: names the entry in the report, the results file and the recordings. */
  id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, "letters, digits, '.', '_' or '-'"),
  url: z.string().optional(),
  /** The clone, relative to --repos (or absolute). */
  repo: z.string().min(1),
  /** Git revisions in that clone: the base the pull request goes into, and its head. */
  base: z.string().min(1),
  head: z.string().min(1),
  gold: z.array(NativeGold),
});

export const NativeDataset = z.strictObject({
  format: z.literal("gadfly-eval"),
  version: z.literal(1),
  entries: z.array(NativeEntry),
});

/**
 * AACR-Bench's published `positive_samples.json` (github.com/alibaba/aacr-bench): an array of
 * pull requests. Its own converter reads `source_commit` as the base and `target_commit` as the
 * head; other fields (`change_line_count`, `project_main_language`, …) are not needed here.
 */
export const AacrComment = z.looseObject({
  path: z.string().min(1),
  side: z.string().optional(),
  from_line: z.number().int(),
  to_line: z.number().int(),
  category: z.string().optional(),
  note: z.string().optional(),
});

export const AacrEntry = z.looseObject({
  githubPrUrl: z.string(),
  source_commit: z.string().min(1),
  target_commit: z.string().min(1),
  comments: z.array(AacrComment),
});

export const AacrDataset = z.array(AacrEntry);

const Count = z.number().int().min(0);

const Spend = z.strictObject({
  inputTokens: Count,
  outputTokens: Count,
  costUsd: z.number().min(0).nullable(),
  durationMs: z.number().min(0),
});

/**
 * One line of a results file (`--resume`): an entry's scored outcome, as written when it ended,
 * with what it was measured under (window, models, lenses): a rerun under other settings would
 * mix figures that do not add up, so it is refused.
 */
export const EntryResultLine = z.strictObject({
  format: z.literal("gadfly-eval-result"),
  id: z.string(),
  url: z.string().nullable(),
  status: z.enum(["reviewed", "failed"]),
  error: z.string().optional(),
  window: Count,
  models: z.array(z.string()),
  lenses: z.array(z.string()),
  gold: Count,
  scores: z.array(
    z.strictObject({
      kind: z.enum(["model", "lens", "consensus", "inline", "category"]),
      name: z.string(),
      matched: Count,
      found: Count,
      gold: Count,
    }),
  ),
  failedLenses: z.record(z.string(), Count),
  spend: z.strictObject({ total: Spend, models: z.record(z.string(), Spend) }),
  judge: z
    .strictObject({
      model: z.string(),
      pairs: Count,
      cached: Count,
      same: Count,
      different: Count,
      unreadable: Count,
      failed: Count,
      spend: Spend,
      problems: z.array(z.string()),
    })
    .optional(),
});
