import type { Consensus } from "../consensus/index.js";
import { bodyBudget, largestFitting } from "./body-limit.js";
import { consensusView } from "./consensus-view.js";
import { MARKERS } from "./markers.js";
import { formatMetaComment } from "./meta-comment.js";
import {
  type ModelOverflowComment,
  renderModelOverflowComment,
} from "./render-model-overflow-comment.js";
import type { RenderOptions } from "./render-options.js";
import { requireMarker } from "./require-marker.js";
import { defaultTemplateEngine } from "./template-engine.js";

export interface ConsensusRenderOptions extends RenderOptions {
  /** Hidden state for the next round (run id, head SHA, round, fingerprints): any JSON value. */
  meta?: unknown;
  /** Where each finding was shown (its inline comment), by cluster fingerprint. */
  findingUrls?: Readonly<Record<string, string>>;
  /** Each model's overflow comment, by model id, once posted (to link from the summary). */
  modelCommentUrls?: Readonly<Record<string, string>>;
  /** False for a replayed run (the CLI's --replay, --demo, --record): no model time is shown. */
  timed?: boolean;
}

export interface RenderedConsensus {
  /** The `<!-- gadfly-consensus -->` comment. */
  body: string;
  /** One comment per model when the detail did not fit in `body`; empty otherwise. */
  overflow: ModelOverflowComment[];
  /** False when the meta JSON was too large to carry: keep it in the store instead. */
  metaIncluded: boolean;
}

/**
 * The consensus comment. When it would not fit the body budget (GitHub takes
 * 65,536 characters), it degrades in steps: the per-model detail moves to one
 * comment per model (whose lens texts are cut if they must be), then the
 * tables and lists are cut, each with a visible note.
 */
export function renderConsensusComment(
  consensus: Consensus,
  options: ConsensusRenderOptions = {},
): RenderedConsensus {
  const engine = options.engine ?? defaultTemplateEngine();
  const budget = bodyBudget(options.maxLength);
  const formattedMeta = options.meta === undefined ? null : formatMetaComment(options.meta);
  // Hidden state may take half the comment at most; beyond that it belongs in the store.
  const meta = formattedMeta !== null && formattedMeta.length <= budget / 2 ? formattedMeta : null;
  // Enough for the longest table or list: the search below only ever lowers it.
  const allRows = Math.max(
    consensus.clusters.length,
    consensus.models.length,
    consensus.comparison?.fixed.length ?? 0,
  );
  const render = (detail: "inline" | "overflow", rowLimit: number): string =>
    requireMarker(
      engine.render(
        "consensus-comment",
        consensusView(consensus, {
          ...(options.lenses === undefined ? {} : { lenses: options.lenses }),
          ...(options.findingUrls === undefined ? {} : { findingUrls: options.findingUrls }),
          ...(options.modelCommentUrls === undefined
            ? {}
            : { modelCommentUrls: options.modelCommentUrls }),
          ...(options.timed === undefined ? {} : { timed: options.timed }),
          detail,
          rowLimit,
          meta,
        }),
      ),
      MARKERS.consensus,
      "consensus-comment",
    );
  const result = (body: string, overflow: ModelOverflowComment[]): RenderedConsensus => ({
    body,
    overflow,
    metaIncluded: meta !== null || options.meta === undefined,
  });

  const whole = render("inline", allRows);
  if (whole.length <= budget) return result(whole, []);

  const overflow = consensus.models.map((model) => renderModelOverflowComment(model, options));
  const folded = render("overflow", allRows);
  if (folded.length <= budget) return result(folded, overflow);

  const rowLimit = largestFitting(allRows, (n) => render("overflow", n).length <= budget);
  const body = render("overflow", rowLimit);
  if (body.length > budget) {
    throw new Error(`consensus-comment cannot fit ${budget} characters even without its tables`);
  }
  return result(body, overflow);
}
