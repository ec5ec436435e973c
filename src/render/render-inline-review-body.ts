import type { Cluster } from "../consensus/index.js";
import { bodyBudget, largestFitting } from "./body-limit.js";
import { safeUrl } from "./escape/links.js";
import { findingRow } from "./finding-row.js";
import { MARKERS } from "./markers.js";
import type { RenderOptions } from "./render-options.js";
import { requireMarker } from "./require-marker.js";
import { defaultTemplateEngine } from "./template-engine.js";

/** A finding that got no inline comment, and why. */
export interface UnplacedFinding {
  cluster: Cluster;
  /** Past the per-review cap on inline comments, or not on lines of one hunk of the new side. */
  reason: "over-limit" | "outside-diff";
}

export interface InlineReviewInput {
  /** Inline comments in this review. */
  inlineCount: number;
  unplaced: readonly UnplacedFinding[];
  /** The consensus comment, to link to when known. */
  consensusUrl?: string;
}

const REASONS: Record<UnplacedFinding["reason"], string> = {
  "over-limit": "over the inline comment limit",
  "outside-diff": "not on a changed line",
};

/** The body of the round's pull-request review (`<!-- gadfly-inline-review -->`). */
export function renderInlineReviewBody(
  input: InlineReviewInput,
  options: RenderOptions = {},
): string {
  const engine = options.engine ?? defaultTemplateEngine();
  const budget = bodyBudget(options.maxLength);
  const consensusUrl = input.consensusUrl === undefined ? null : safeUrl(input.consensusUrl);
  const render = (limit: number): string =>
    requireMarker(
      engine.render("inline-review-body", {
        inlineCount: input.inlineCount,
        consensusUrl,
        unplacedCount: input.unplaced.length,
        unplaced: input.unplaced.slice(0, limit).map(({ cluster, reason }) => ({
          ...findingRow(cluster, cluster.models.length),
          reason: REASONS[reason],
        })),
        unplacedOmitted: Math.max(0, input.unplaced.length - limit),
      }),
      MARKERS.inlineReview,
      "inline-review-body",
    );
  const whole = render(input.unplaced.length);
  if (whole.length <= budget) return whole;
  const body = render(largestFitting(input.unplaced.length, (n) => render(n).length <= budget));
  if (body.length > budget) throw new Error(`inline-review-body cannot fit ${budget} characters`);
  return body;
}
