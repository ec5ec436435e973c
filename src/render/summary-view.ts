import type { Cluster, Consensus } from "../consensus/index.js";
import { SEVERITY_RANK, type Severity } from "../findings/index.js";
import { severityLabel } from "./format.js";
import { usageLine } from "./usage-line.js";

/** A group's files shown before `… and N more`: a 50-file group is one line, not fifty. */
export const SUMMARY_FILES_SHOWN = 6;

export interface SummaryGroupView {
  label: string;
  files: string[];
  moreFiles: number;
  /** `3 findings, most severe 🔴 high`; null when none of its files has one. */
  findings: string | null;
}

export interface SummaryView {
  written: boolean;
  /** The model that wrote it (or was asked); null when none was asked. */
  model: string | null;
  lines: string[];
  groups: SummaryGroupView[];
  /** Changed files with findings that the model put in no group, as one more row. */
  elsewhere: string | null;
  verdictLinesDropped: number;
  /** What the summary call spent; null when it spent nothing. */
  cost: string | null;
  reason: string | null;
}

/**
 * The summary section: the model's lines and groups (text escaped by the template), where the
 * round's findings fall in those groups (ours, counted from the consensus), and the call's cost.
 */
export function summaryView(
  consensus: Consensus,
  options: { timed?: boolean } = {},
): SummaryView | null {
  const summary = consensus.summary;
  if (summary === undefined) return null;
  const figures = consensus.usage?.phases.summary;
  const cost =
    figures === undefined || figures.inputTokens + figures.outputTokens === 0
      ? null
      : usageLine(figures, { timed: options.timed !== false });
  if (summary.state === "unavailable") {
    return {
      written: false,
      model: summary.model,
      lines: [],
      groups: [],
      elsewhere: null,
      verdictLinesDropped: 0,
      cost,
      reason: summary.reason,
    };
  }
  const shown = consensus.clusters.filter((cluster) => cluster.disputed !== true);
  const grouped = new Set(summary.groups.flatMap((group) => group.files));
  const outside = shown.filter((cluster) => !grouped.has(cluster.representative.file));
  return {
    written: true,
    model: summary.model,
    lines: summary.lines,
    groups: summary.groups.map((group) => {
      const files = new Set(group.files);
      return {
        label: group.label,
        files: group.files.slice(0, SUMMARY_FILES_SHOWN),
        moreFiles: Math.max(0, group.files.length - SUMMARY_FILES_SHOWN),
        findings: findingsNote(shown.filter((cluster) => files.has(cluster.representative.file))),
      };
    }),
    elsewhere: findingsNote(outside),
    verdictLinesDropped: summary.verdictLinesDropped,
    cost,
    reason: null,
  };
}

function findingsNote(clusters: readonly Cluster[]): string | null {
  if (clusters.length === 0) return null;
  const worst = clusters.reduce<Severity>(
    (top, cluster) =>
      SEVERITY_RANK[cluster.severity] > SEVERITY_RANK[top] ? cluster.severity : top,
    clusters[0]?.severity ?? "nit",
  );
  const count = clusters.length === 1 ? "1 finding" : `${clusters.length} findings`;
  return `${count}, most severe ${severityLabel(worst)}`;
}
