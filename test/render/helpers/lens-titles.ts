import { loadLenses } from "../../../src/agent/index.js";
import type { LensMetadata } from "../../../src/render/index.js";

/**
 * The shipped lenses' titles and emoji, read from lenses/*.md: what the app's round runner and
 * the CLI pass to render as `RenderOptions.lenses`, from the lens definitions they loaded.
 */
export const LENS_TITLES: Readonly<Record<string, LensMetadata>> = Object.fromEntries(
  (await loadLenses()).map((lens) => [lens.id, { title: lens.title, emoji: lens.emoji }]),
);
