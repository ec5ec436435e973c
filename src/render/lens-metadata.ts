/** How a lens is titled in what we publish. Custom lenses bring their own. */
export interface LensMetadata {
  title: string;
  emoji: string;
}

export const BUILT_IN_LENSES: Readonly<Record<string, LensMetadata>> = {
  security: { emoji: "🔒", title: "Security" },
  correctness: { emoji: "🎯", title: "Correctness" },
  maintainability: { emoji: "🧹", title: "Code cleanliness & maintainability" },
  performance: { emoji: "⚡", title: "Performance" },
  "error-handling": { emoji: "🧯", title: "Error handling & edge cases" },
};

/** Same default as a repository's custom lens without an emoji. */
const FALLBACK_EMOJI = "🔎";

/** The lens's title and emoji: the caller's map, then the built-ins, then one made from the id. */
export function lensMetadata(
  lens: string,
  overrides: Readonly<Record<string, LensMetadata>> = {},
): LensMetadata {
  const known = Object.hasOwn(overrides, lens)
    ? overrides[lens]
    : Object.hasOwn(BUILT_IN_LENSES, lens)
      ? BUILT_IN_LENSES[lens]
      : undefined;
  if (known !== undefined) return known;
  const words = lens.replace(/[-_]+/g, " ").trim();
  return { emoji: FALLBACK_EMOJI, title: words.charAt(0).toUpperCase() + words.slice(1) };
}
