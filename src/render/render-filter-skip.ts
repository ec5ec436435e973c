import { MARKERS } from "./markers.js";
import type { RenderOptions } from "./render-options.js";
import { requireMarker } from "./require-marker.js";
import { defaultTemplateEngine } from "./template-engine.js";

export interface FilterSkipInput {
  /** Ours (it names the `filters` field), quoting the pull request's text (a label, a login). */
  reason: string;
  /** Over `filters.maxSize`: the pull request also gets a comment asking to split it. */
  split: boolean;
  /** The repository's trigger phrase, which overrides the filters. */
  trigger: string;
  headSha: string;
}

export interface FilterSkipOutput {
  /** The check run's title: plain text, so only cut, never markdown. */
  title: string;
  summary: string;
  /** The comment asking to split the pull request; null unless `split`. */
  comment: string | null;
}

/** GitHub shows a check's title on one line: a long label must not push the reason off it. */
const TITLE_CHARS = 200;

/**
 * What a push that the repository's `filters` skip publishes instead of a round: a completed
 * check saying why (never silence), and for an oversized pull request one comment asking to
 * split it. Both name the override.
 */
export function renderFilterSkip(
  input: FilterSkipInput,
  options: RenderOptions = {},
): FilterSkipOutput {
  const engine = options.engine ?? defaultTemplateEngine();
  // By code point, so a cut never splits a character.
  const title = [...`Skipped: ${input.reason}`.replace(/\s+/g, " ")];
  const view = {
    reason: input.reason,
    split: input.split,
    trigger: input.trigger,
    headSha: input.headSha.slice(0, 7),
  };
  return {
    title:
      title.length <= TITLE_CHARS ? title.join("") : `${title.slice(0, TITLE_CHARS - 1).join("")}…`,
    summary: engine.render("filter-skip-summary", view),
    comment: input.split
      ? requireMarker(
          engine.render("split-request-comment", view),
          MARKERS.splitRequest,
          "split-request-comment",
        )
      : null,
  };
}
