import { META_PREFIX, META_SUFFIX } from "./format-meta-comment.js";

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
