import type { Cluster } from "../consensus/index.js";
import type { SuggestionOutcome } from "../suggestions/index.js";
import { truncateText } from "./escape/text.js";
import { findingRow } from "./finding-row.js";
import { findingCommentMarker } from "./markers.js";
import type { RenderOptions } from "./render-options.js";
import { suggestionView } from "./suggestion-view.js";
import { defaultTemplateEngine } from "./template-engine.js";

/** The finding's detail in an inline comment; the consensus comment has it whole. */
const BODY_LENGTH = 1_500;

/**
 * One inline review comment for a cluster: severity and title, lens and how many
 * models flagged it, the representative finding's detail, its checked suggestion (a
 * ```suggestion block, or a diff with the reason it is not one), the advisory footer,
 * then a hidden marker naming the cluster's fingerprint.
 */
export function renderInlineComment(
  cluster: Cluster,
  options: RenderOptions = {},
  suggestion?: SuggestionOutcome,
  /** Models that completed a lens this round: the N of the hand-off's "k/N" agreement. */
  modelCount = cluster.models.length,
): string {
  const engine = options.engine ?? defaultTemplateEngine();
  const row = findingRow(cluster, Math.max(modelCount, cluster.models.length), {}, undefined, true);
  return engine.render("inline-comment", {
    ...row,
    body: truncateText(cluster.representative.body.trim(), BODY_LENGTH).text,
    suggestion: suggestionView(suggestion, cluster.models.length),
    marker: findingCommentMarker(cluster.fingerprint),
  });
}
