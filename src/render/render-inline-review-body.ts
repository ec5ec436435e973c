import type { Cluster, InlinePolicy, InlineSelection } from "../consensus/index.js";
import { bodyBudget, largestFitting } from "./body-limit.js";
import { safeUrl } from "./escape/links.js";
import { findingRow } from "./finding-row.js";
import { formatCount } from "./format.js";
import { MARKERS } from "./markers.js";
import { formatMetaComment } from "./meta-comment.js";
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
  /** What the publishing policy kept out of the inline review, said in one line when any. */
  heldBack?: HeldBack;
  /**
   * The round that posts it, in a hidden `gadfly-meta` line: a round resumed after a kill
   * finds the review it already posted by it (on our review of the same head) and adopts it.
   */
  runId?: string;
}

/** The findings the policy kept out of the review, counted by reason, and the policy. */
export interface HeldBack {
  counts: InlineSelection["counts"];
  policy: Pick<InlinePolicy, "minSeverity" | "maxInline">;
}

const findings = (count: number, what = "finding") =>
  `${formatCount(count)} ${what}${count === 1 ? "" : "s"}`;

/**
 * One plain sentence saying how many findings are only in the consensus comment and why,
 * e.g. "4 single-model findings below high severity and 1 over the limit of 30 inline
 * comments are in the consensus comment only."; null when nothing was held back.
 */
export function heldBackLine(heldBack: HeldBack): string | null {
  const { counts, policy } = heldBack;
  const parts = [
    counts.lone > 0 ? `${findings(counts.lone, "single-model finding")} below high severity` : "",
    counts.disputed > 0
      ? `${findings(counts.disputed, "single-model finding")} other models refuted`
      : "",
    counts.belowSeverity > 0
      ? `${findings(counts.belowSeverity)} below ${policy.minSeverity} severity`
      : "",
    counts.overCap > 0
      ? `${formatCount(counts.overCap)} over the limit of ${findings(policy.maxInline, "inline comment")}`
      : "",
    counts.off > 0 ? `${findings(counts.off)} (inline comments are off)` : "",
  ].filter((part) => part !== "");
  if (parts.length === 0) return null;
  const total = Object.values(counts).reduce((sum, count) => sum + count, 0);
  const listed =
    parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
  return `${listed} ${total === 1 ? "is" : "are"} in the consensus comment only.`;
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
        meta: input.runId === undefined ? null : formatMetaComment({ runId: input.runId }),
        inlineCount: input.inlineCount,
        consensusUrl,
        heldBack: input.heldBack === undefined ? null : heldBackLine(input.heldBack),
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
