import type { ConfigIssue } from "../config/index.js";
import { bodyBudget, largestFitting } from "./body-limit.js";
import { MARKERS } from "./markers.js";
import type { RenderOptions } from "./render-options.js";
import { requireMarker } from "./require-marker.js";
import { defaultTemplateEngine } from "./template-engine.js";

export interface InvalidConfigNoticeOptions extends RenderOptions {
  /** The file that was invalid. */
  source?: string;
}

/**
 * `<!-- gadfly-config-notice -->`: the repository's config could not be used.
 * Names every field and what is wrong with it, and says the review ran on defaults.
 */
export function renderInvalidConfigNotice(
  issues: readonly ConfigIssue[],
  options: InvalidConfigNoticeOptions = {},
): string {
  const engine = options.engine ?? defaultTemplateEngine();
  const budget = bodyBudget(options.maxLength);
  const render = (limit: number): string =>
    requireMarker(
      engine.render("invalid-config-notice", {
        source: options.source ?? ".github/gadfly.yml",
        count: issues.length,
        issues: issues.slice(0, limit),
        omitted: Math.max(0, issues.length - limit),
      }),
      MARKERS.configNotice,
      "invalid-config-notice",
    );
  const whole = render(issues.length);
  if (whole.length <= budget) return whole;
  const body = render(largestFitting(issues.length, (n) => render(n).length <= budget));
  if (body.length > budget)
    throw new Error(`invalid-config-notice cannot fit ${budget} characters`);
  return body;
}
