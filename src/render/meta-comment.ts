/* The hidden `<!-- gadfly-meta {...} -->` line of the consensus comment, written and read back. */

const META_PREFIX = "<!-- gadfly-meta ";
const META_SUFFIX = " -->";

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

/**
 * Reads back what `formatMetaComment` wrote, or null. Only call it on a comment
 * our bot wrote (checked by login): anyone can type a meta line in theirs.
 * The value is untrusted JSON: validate it before use.
 */
export function parseMetaComment(body: string): unknown {
  const start = body.indexOf(META_PREFIX);
  if (start === -1) return null;
  const end = body.indexOf(META_SUFFIX, start + META_PREFIX.length);
  if (end === -1) return null;
  try {
    return JSON.parse(body.slice(start + META_PREFIX.length, end));
  } catch {
    return null;
  }
}
