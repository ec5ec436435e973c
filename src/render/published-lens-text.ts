import type { LensReport } from "../agent/index.js";
import { removeFindingsBlocks } from "../findings/index.js";

/**
 * A lens's text as the PR shows it: the model's prose and VERDICT line, without
 * the `gadfly-findings` JSON (its findings are already in the tables and inline).
 */
export function publishedLensText(lens: LensReport): string {
  return removeFindingsBlocks(lens.text);
}
