import type { ModelSummary } from "../consensus/index.js";
import { bodyBudget, largestFitting } from "./body-limit.js";
import { cutLensTexts } from "./cut-lens-texts.js";
import { modelCommentMarker } from "./markers.js";
import { type LensCut, type ModelViewOptions, modelView, publishedLensText } from "./model-view.js";
import type { RenderOptions } from "./render-options.js";
import { requireMarker } from "./require-marker.js";
import { defaultTemplateEngine } from "./template-engine.js";

/** One model's per-lens detail, posted on its own when the consensus comment is too long. */
export interface ModelOverflowComment {
  model: string;
  /** `<!-- gadfly-model:ID -->`, the body's first line: how to find the comment again. */
  marker: string;
  body: string;
}

/** Re-tries with a smaller text allowance when escaping or the template outgrew the estimate. */
const ATTEMPTS = 4;

/**
 * `<!-- gadfly-model:ID -->` comment for one model. Fits the body budget by cutting
 * its lens texts (each with a visible note of what was cut), the longest first.
 */
export function renderModelOverflowComment(
  model: ModelSummary,
  options: RenderOptions = {},
): ModelOverflowComment {
  const engine = options.engine ?? defaultTemplateEngine();
  const budget = bodyBudget(options.maxLength);
  const marker = modelCommentMarker(model.model);
  const base: ModelViewOptions = options.lenses === undefined ? {} : { lenses: options.lenses };
  const render = (extra: ModelViewOptions): string =>
    requireMarker(
      engine.render("model-overflow-comment", modelView(model, { ...base, ...extra })),
      marker,
      "model-overflow-comment",
    );
  const done = (body: string): ModelOverflowComment => ({ model: model.model, marker, body });

  const whole = render({});
  if (whole.length <= budget) return done(whole);

  const texts = model.lenses.map(publishedLensText);
  const emptied: LensCut[] = texts.map((text) => ({ text: "", omitted: text.length }));
  const skeleton = render({ cuts: emptied });
  if (skeleton.length <= budget) {
    let available = budget - skeleton.length;
    for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
      const body = render({ cuts: cutLensTexts(texts, available) });
      if (body.length <= budget) return done(body);
      available -= body.length - budget + 256;
    }
    return done(skeleton);
  }
  // Not even every lens's heading fits: show the first lenses that do, without text.
  const fits = (lensLimit: number): boolean =>
    render({ cuts: emptied, lensLimit }).length <= budget;
  const body = render({ cuts: emptied, lensLimit: largestFitting(model.lenses.length, fits) });
  if (body.length > budget) {
    throw new Error(`model-overflow-comment cannot fit ${budget} characters for ${model.model}`);
  }
  return done(body);
}
