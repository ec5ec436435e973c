/** The first line of each comment we own: how we find it again (together with our bot's login). */
export const MARKERS = {
  statusBoard: "<!-- gadfly-status-board -->",
  consensus: "<!-- gadfly-consensus -->",
  inlineReview: "<!-- gadfly-inline-review -->",
  configNotice: "<!-- gadfly-config-notice -->",
} as const;

/**
 * `<!-- gadfly-model:ID -->`, the marker of one model's overflow comment. The id
 * comes from the app config, but it is still encoded so it cannot end the comment.
 */
export function modelCommentMarker(model: string): string {
  return `<!-- gadfly-model:${markerValue(model)} -->`;
}

/** `<!-- gadfly-finding:FINGERPRINT -->`, ending an inline comment: which cluster it shows. */
export function findingCommentMarker(fingerprint: string): string {
  return `<!-- gadfly-finding:${markerValue(fingerprint)} -->`;
}

/** Percent-encodes all but a safe set, and every `--`, so the value cannot close the comment. */
function markerValue(value: string): string {
  return [...value]
    .map((character) =>
      /^[A-Za-z0-9._:/@+-]$/.test(character) ? character : encodeURIComponent(character),
    )
    .join("")
    .replace(/-(?=-)/g, "%2D");
}
