import type { PreviousFinding, RoundComparison } from "../consensus/index.js";
import { type FindingRow, findingRow } from "./finding-row.js";
import { SEVERITY_EMOJI, shortSha } from "./format.js";

export interface FixedItem {
  emoji: string;
  title: string;
  file: string;
  line: number;
  endLine: number;
  url: string | null;
}

export interface ComparisonView {
  round: number;
  previousHeadSha: string;
  fixedCount: number;
  stillOpenCount: number;
  freshCount: number;
  hasItems: boolean;
  fixed: FixedItem[];
  stillOpen: StillOpenRow[];
  fresh: FindingRow[];
  /** Items left out of the three lists to fit the comment. */
  omitted: number;
  /**
   * Some lens of this round did not review (failed, cancelled, skipped) and something
   * counts as fixed: it may only have gone unreported, and the section says so.
   */
  fixedUnsure: boolean;
}

/** A still-open row; `carried` says why an incremental round kept it without a model re-reporting it. */
export interface StillOpenRow extends FindingRow {
  carried: string | null;
}

/** Our words for a carried finding (see Cluster.carried). */
function carriedNote(cluster: RoundComparison["stillOpen"][number]): string | null {
  if (cluster.carried === undefined) return null;
  if (cluster.carried.recheck === "confirmed")
    return "the push changed its lines; re-checked: still there";
  if (cluster.carried.recheck === "unsure")
    return "the push changed its lines; not confirmed fixed, so kept open";
  if (cluster.carried.recheck === "not-rechecked")
    return "not re-checked this round: a model that reported it did not finish; kept open";
  return `carried from round ${cluster.carried.since}: the push left its lines alone`;
}

/** The "Since the last round" section, each list cut to `limit` items. */
export function comparisonView(
  comparison: RoundComparison,
  modelCount: number,
  limit: number,
  urls: Readonly<Record<string, string>> = {},
  /** Not every lens of this round reviewed. */
  partial = false,
): ComparisonView {
  const fixed = comparison.fixed.slice(0, limit).map(fixedItem);
  const stillOpen = comparison.stillOpen
    .slice(0, limit)
    .map((c) => ({ ...findingRow(c, modelCount, urls), carried: carriedNote(c) }));
  const fresh = comparison.fresh.slice(0, limit).map((c) => findingRow(c, modelCount, urls));
  const total = comparison.fixed.length + comparison.stillOpen.length + comparison.fresh.length;
  const shown = fixed.length + stillOpen.length + fresh.length;
  return {
    round: comparison.round,
    previousHeadSha: shortSha(comparison.previousHeadSha),
    fixedCount: comparison.fixed.length,
    stillOpenCount: comparison.stillOpen.length,
    freshCount: comparison.fresh.length,
    hasItems: total > 0,
    fixed,
    stillOpen,
    fresh,
    omitted: total - shown,
    fixedUnsure: partial && comparison.fixed.length > 0,
  };
}

function fixedItem(finding: PreviousFinding): FixedItem {
  return {
    emoji: SEVERITY_EMOJI[finding.severity],
    title: finding.title,
    file: finding.file,
    line: finding.line,
    endLine: finding.line,
    url: finding.url ?? null,
  };
}
