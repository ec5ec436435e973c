import type { Cluster } from "../consensus/index.js";
import { escapeInline, fenceDiff, formatLocation, suggestionView } from "../render/index.js";
import type { SuggestionOutcome } from "../suggestions/index.js";

/**
 * The checked suggestions of a markdown report, after the consensus: each as a diff from the
 * head's lines to the replacement, with who proposed it and what was checked (or why it is not
 * offered). A report file is read, not committed from, so a passed one is a diff too. Empty when
 * no finding proposed one.
 */
export function suggestionsMarkdown(
  clusters: readonly Cluster[],
  suggestions: ReadonlyMap<string, SuggestionOutcome> | undefined,
): string {
  const sections = clusters.flatMap((cluster, index) => {
    const view = suggestionView(suggestions?.get(cluster.fingerprint), cluster.models.length);
    if (view === null) return [];
    const where = formatLocation(escapeInline(view.file), view.line, view.endLine);
    const by = `proposed by ${view.supporters} of ${view.models} model${view.models === 1 ? "" : "s"}`;
    const status = view.passed
      ? `✅ checked: ${escapeInline(view.checked)}`
      : `⚠️ not offered as a suggestion: ${escapeInline(view.checked)}`;
    return [
      `**${index + 1}. ${escapeInline(cluster.representative.title)}** — ${where}, ${by}. ${status}`,
      fenceDiff(view.original, view.lines),
    ];
  });
  return sections.length === 0 ? "" : ["### Checked suggestions", ...sections].join("\n\n");
}
