/** How a lens is titled in what we publish: from its definition (`lenses/*.md`, a repository's `customLenses`). */
export interface LensMetadata {
  title: string;
  emoji: string;
}

/** Same default as a repository's custom lens without an emoji. */
const FALLBACK_EMOJI = "🔎";

/**
 * The lens's title and emoji from the caller's map (built from the lens definitions), or, for a
 * lens missing there, a title made from its id and the default emoji.
 */
export function lensMetadata(
  lens: string,
  lenses: Readonly<Record<string, LensMetadata>> = {},
): LensMetadata {
  const known = Object.hasOwn(lenses, lens) ? lenses[lens] : undefined;
  if (known !== undefined) return known;
  const words = lens.replace(/[-_]+/g, " ").trim();
  return { emoji: FALLBACK_EMOJI, title: words.charAt(0).toUpperCase() + words.slice(1) };
}
