import { FINDINGS_FENCE_INFO } from "../findings/index.js";

const COMMENT_MARKER_RE = /<!--(\s*gadfly)/gi;
const FENCE_INFO_RE = new RegExp(FINDINGS_FENCE_INFO.replace("-", "[-‐‑–]"), "gi");
const FENCE_INFO_REPLACEMENT = FINDINGS_FENCE_INFO.replace("-", "_");

export interface Neutralized {
  text: string;
  /** How many markers were rewritten. */
  count: number;
}

/**
 * Rewrites Gadfly's own markers inside untrusted text, so a pull request
 * cannot plant a `<!-- gadfly-… -->` comment or a `gadfly-findings` block that
 * a model might echo as its own answer: `<!-- gadfly` becomes `&lt;!-- gadfly`
 * and `gadfly-findings` becomes `gadfly_findings`.
 */
export function neutralizeMarkers(text: string): Neutralized {
  let count = 0;
  const rewritten = text
    .replace(COMMENT_MARKER_RE, (_match, rest: string) => {
      count++;
      return `&lt;!--${rest}`;
    })
    .replace(FENCE_INFO_RE, () => {
      count++;
      return FENCE_INFO_REPLACEMENT;
    });
  return { text: rewritten, count };
}
