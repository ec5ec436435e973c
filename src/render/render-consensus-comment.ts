import type { Consensus } from "../consensus/index.js";
import { bodyBudget, largestFitting } from "./body-limit.js";
import { consensusView } from "./consensus-view.js";
import { stripInvisibleCharacters } from "./escape/text.js";
import type { CodeLinks } from "./finding-row.js";
import { MARKERS } from "./markers.js";
import { formatMetaComment } from "./meta-comment.js";
import { publishedLensText } from "./model-view.js";
import {
  type ModelOverflowComment,
  renderModelOverflowComment,
} from "./render-model-overflow-comment.js";
import type { RenderOptions } from "./render-options.js";
import { requireMarker } from "./require-marker.js";
import { defaultTemplateEngine } from "./template-engine.js";

/**
 * At most this many rows carry their expandable details and hand-off: a row's details take at
 * least ~600 characters (the hand-off's own words), so more could never fit a 65,536-character
 * comment, and rendering them would be work for nothing.
 */
export const MAX_DETAILED_ROWS = 100;
/** When rows must be cut, at most this many (the highest ranked) keep their details. */
export const TOP_DETAILED_ROWS = 10;
/** The fewest characters a row's details add (its hand-off's own words alone take more). */
const MIN_DETAIL_LENGTH = 500;

export interface ConsensusRenderOptions extends RenderOptions {
  /** Hidden state for the next round (run id, head SHA, round, fingerprints): any JSON value. */
  meta?: unknown;
  /** Where each finding was shown (its inline comment), by cluster fingerprint. */
  findingUrls?: Readonly<Record<string, string>>;
  /** Where the reviewed code is on the web: each row links to its lines at the head SHA. */
  code?: CodeLinks;
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
 * rows lose their expandable details and hand-offs (the lowest ranked first),
 * then the tables and lists are cut (the top TOP_DETAILED_ROWS keeping their
 * details when they fit), each with a visible note.
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
  // Every try of the search below renders the same rows: each is built once.
  const rowCache: NonNullable<Parameters<typeof consensusView>[1]["rowCache"]> = new Map();
  const render = (
    detail: "inline" | "overflow",
    rowLimit: number,
    detailLimit = Math.min(rowLimit, MAX_DETAILED_ROWS),
  ): string =>
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
          ...(options.code === undefined ? {} : { code: options.code }),
          detail,
          rowLimit,
          detailLimit,
          meta,
          rowCache,
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

  // Lens texts far longer than the budget cannot fit inline: not rendered whole for nothing.
  if (inlineDetailMayFit(consensus, budget)) {
    const whole = render("inline", allRows);
    if (whole.length <= budget) return result(whole, []);
  }

  const overflow = consensus.models.map((model) => renderModelOverflowComment(model, options));
  const folded = render("overflow", allRows);
  if (folded.length <= budget) return result(folded, overflow);

  // Every row, and the details of as many as fit (agreed ones first: they are ranked first);
  // when not even every row fits bare, the rows are cut and none has details.
  const bare = render("overflow", allRows, 0);
  if (bare.length <= budget) {
    const room = Math.floor((budget - bare.length) / MIN_DETAIL_LENGTH);
    const detailLimit = largestFitting(
      Math.min(allRows, MAX_DETAILED_ROWS, room),
      (n) => render("overflow", allRows, n).length <= budget,
    );
    return result(render("overflow", allRows, detailLimit), overflow);
  }

  // Rows must be cut: the highest ranked keep their details if they can, the rest go bare.
  const top = (n: number): number => Math.min(n, TOP_DETAILED_ROWS);
  const keepsTop = render("overflow", TOP_DETAILED_ROWS, TOP_DETAILED_ROWS).length <= budget;
  const details = keepsTop ? top : () => 0;
  const rowLimit = largestFitting(
    allRows,
    (n) => render("overflow", n, details(n)).length <= budget,
  );
  const body = render("overflow", rowLimit, details(rowLimit));
  if (body.length > budget) {
    throw new Error(`consensus-comment cannot fit ${budget} characters even without its tables`);
  }
  return result(body, overflow);
}

/**
 * False when the lens texts alone, as published, are over twice the budget: escaping keeps
 * every visible character but for a link's brackets and an image's alt text, so they could not
 * fit, and rendering them whole (the costliest render there is) would be work for nothing.
 */
function inlineDetailMayFit(consensus: Consensus, budget: number): boolean {
  let length = 0;
  for (const lens of consensus.models.flatMap((model) => model.lenses)) {
    length += stripInvisibleCharacters(publishedLensText(lens)).length;
    if (length > 2 * budget) return false;
  }
  return true;
}
