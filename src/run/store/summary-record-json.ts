import { z } from "zod";
import type { SummaryRecord } from "../summary-phase.js";

const Count = z.number().int().nonnegative();

/** A written summary as `round_summaries.record` keeps it; anything else reads as none. */
const StoredSummary = z.object({
  outcome: z.literal("written"),
  model: z.string(),
  summary: z.object({
    lines: z.array(z.string()),
    groups: z.array(z.object({ label: z.string(), files: z.array(z.string()) })),
    verdictLinesDropped: Count,
  }),
  usage: z
    .object({
      inputTokens: Count,
      outputTokens: Count,
      cachedInputTokens: Count.optional(),
      cacheWriteTokens: Count.optional(),
      estimatedInputTokens: Count.optional(),
    })
    .optional(),
  durationMs: Count.optional(),
});

/** The record's JSON for the store. */
export function summaryRecordJson(record: SummaryRecord): string {
  return JSON.stringify(record);
}

/**
 * The summary a row holds, or null when it is not one this version wrote (the summary is then
 * written again rather than a malformed one shown).
 */
export function summaryRecordFromJson(text: string): SummaryRecord | null {
  try {
    const parsed = StoredSummary.safeParse(JSON.parse(text));
    return parsed.success ? (parsed.data as SummaryRecord) : null;
  } catch {
    return null;
  }
}
