export const META_PREFIX = "<!-- gadfly-meta ";
export const META_SUFFIX = " -->";

/**
 * The hidden `<!-- gadfly-meta {...} -->` line. The JSON is written so that it can
 * never end the comment early or open another: `<`, `>` and every `--` are
 * \u-escaped, which JSON.parse reads back unchanged.
 */
export function formatMetaComment(meta: unknown): string {
  const json = (JSON.stringify(meta) ?? "null")
    .replaceAll("<", "\\u003c")
    .replaceAll(">", "\\u003e")
    .replace(/-(?=-)/g, "\\u002d");
  return `${META_PREFIX}${json}${META_SUFFIX}`;
}
