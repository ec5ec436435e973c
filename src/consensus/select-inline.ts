import { SEVERITY_RANK, type Severity } from "../findings/index.js";
import { agreementOf } from "./apply-challenges.js";
import type { Cluster } from "./cluster.js";

/**
 * Which findings get an inline comment (the repository's `publish`, over the app's).
 * Declared here so consensus stays free of config; `config`'s PublishPolicy has this shape.
 */
export interface InlinePolicy {
  /** `agreed`: agreed by two models or more, or a lone `high`; `all`: every one; `off`: none. */
  inline: "agreed" | "all" | "off";
  /** Clusters below this severity are not inline. */
  minSeverity: Severity;
  /** At most this many clusters go inline, the best ranked first. */
  maxInline: number;
}

/** Why a cluster was kept out of the inline review (it stays in the consensus comment). */
export type HeldBackReason =
  /** The policy is `inline: off`. */
  | "off"
  /** Below `minSeverity`. */
  | "belowSeverity"
  /** Reported by one model only and not `high` (policy `agreed`). */
  | "lone"
  /** Refuted by most of the other models on cross-examination, and not agreed (policy `agreed`). */
  | "disputed"
  /** Past `maxInline`. */
  | "overCap";

export interface InlineSelection {
  /** The clusters to post inline, in the order given (ranked). */
  selected: Cluster[];
  /** Every other cluster, with the one reason it was held back (the first rule it failed). */
  heldBack: { cluster: Cluster; reason: HeldBackReason }[];
  /** `heldBack` counted by reason. */
  counts: Record<HeldBackReason, number>;
}

export interface SelectInlineOptions {
  /**
   * How many models agree on a cluster: by default those that reported it and those that
   * confirmed it on cross-examination (agreementOf).
   */
  agreement?: (cluster: Cluster) => number;
  /**
   * Whether a cluster can get an inline comment at all (its lines lie in one hunk). One that
   * cannot is still selected, so the review lists it, but takes no place under `maxInline`.
   * Default: every cluster can.
   */
  placeable?: (cluster: Cluster) => boolean;
}

/** Agreed means at least this many models. */
export const AGREEMENT_THRESHOLD = 2;

/**
 * Splits ranked clusters into those posted inline and those held back, and why. Pure.
 * A dismissed cluster is in neither. The rules, in order: `off` holds back everything; a
 * cluster below `minSeverity` is held back; under `agreed`, a cluster fewer than two models
 * agree on is held back unless it is `high`; the rest are taken in order up to `maxInline`.
 */
export function selectInline(
  clusters: readonly Cluster[],
  policy: InlinePolicy,
  options: SelectInlineOptions = {},
): InlineSelection {
  const agreement = options.agreement ?? agreementOf;
  const placeable = options.placeable ?? (() => true);
  const selection: InlineSelection = {
    selected: [],
    heldBack: [],
    counts: { off: 0, belowSeverity: 0, lone: 0, disputed: 0, overCap: 0 },
  };
  const holdBack = (cluster: Cluster, reason: HeldBackReason) => {
    selection.heldBack.push({ cluster, reason });
    selection.counts[reason]++;
  };
  let slots = Math.max(0, Math.floor(policy.maxInline));
  const take = (cluster: Cluster) => {
    if (!placeable(cluster)) selection.selected.push(cluster);
    else if (slots === 0) holdBack(cluster, "overCap");
    else {
      slots--;
      selection.selected.push(cluster);
    }
  };
  for (const cluster of clusters) {
    // Dismissed on this PR: never inline again, and not "held back" either (the consensus
    // shows who dismissed it), so no count or line mentions it.
    if (cluster.dismissed !== undefined) continue;
    if (policy.inline === "off") {
      holdBack(cluster, "off");
    } else if (SEVERITY_RANK[cluster.severity] < SEVERITY_RANK[policy.minSeverity]) {
      holdBack(cluster, "belowSeverity");
    } else if (policy.inline === "agreed" && agreement(cluster) < AGREEMENT_THRESHOLD) {
      // A lone high speaks unless the other models refuted it: then it is disputed.
      if (cluster.disputed === true) holdBack(cluster, "disputed");
      else if (cluster.severity !== "high") holdBack(cluster, "lone");
      else take(cluster);
    } else {
      take(cluster);
    }
  }
  return selection;
}
