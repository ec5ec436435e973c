import type { RoundStatus } from "../run/index.js";
import { bodyBudget, largestFitting } from "./body-limit.js";
import { MARKERS } from "./markers.js";
import type { RenderOptions } from "./render-options.js";
import { requireMarker } from "./require-marker.js";
import { type StatusBoardViewOptions, statusBoardView } from "./status-board-view.js";
import { defaultTemplateEngine } from "./template-engine.js";

/** Files listed by name as not reviewed; the rest are counted. */
const NOT_REVIEWED_SHOWN = 50;

/**
 * The `<!-- gadfly-status-board -->` comment at one moment of a round. Dates come
 * from `status.updatedAt` (the caller's clock). Fits the body budget by listing
 * fewer unreviewed files, then dropping the lens lines (and listing as many files
 * as then fit), then showing fewer reviewers.
 */
export function renderStatusBoard(status: RoundStatus, options: RenderOptions = {}): string {
  const engine = options.engine ?? defaultTemplateEngine();
  const budget = bodyBudget(options.maxLength);
  const render = (view: StatusBoardViewOptions): string =>
    requireMarker(
      engine.render("status-board", statusBoardView(status, view)),
      MARKERS.statusBoard,
      "status-board",
    );
  const fits = (body: string): boolean => body.length <= budget;
  const reviewers = status.reviewers.length;

  const shownFiles = Math.min(NOT_REVIEWED_SHOWN, status.notReviewed.length);
  const full = render({ notReviewedLimit: shownFiles, lensLines: true, reviewerLimit: reviewers });
  if (fits(full)) return full;
  for (const lensLines of [true, false]) {
    const files = largestFitting(shownFiles, (n) =>
      fits(render({ notReviewedLimit: n, lensLines, reviewerLimit: reviewers })),
    );
    const body = render({ notReviewedLimit: files, lensLines, reviewerLimit: reviewers });
    if (fits(body)) return body;
  }
  const shown = largestFitting(reviewers, (n) =>
    fits(render({ notReviewedLimit: 0, lensLines: false, reviewerLimit: n })),
  );
  const body = render({ notReviewedLimit: 0, lensLines: false, reviewerLimit: shown });
  if (!fits(body)) throw new Error(`status-board cannot fit ${budget} characters`);
  return body;
}
