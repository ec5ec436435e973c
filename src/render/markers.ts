/** The first line of each comment we own: how we find it again (together with our bot's login). */
export const MARKERS = {
  statusBoard: "<!-- gadfly-status-board -->",
  consensus: "<!-- gadfly-consensus -->",
  inlineReview: "<!-- gadfly-inline-review -->",
  configNotice: "<!-- gadfly-config-notice -->",
  splitRequest: "<!-- gadfly-split-request -->",
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

/** `<!-- gadfly-answer:REPLY_ID -->`, opening our reply to one `@gadfly` request in a thread. */
export function threadAnswerMarker(replyCommentId: number): string {
  return `<!-- gadfly-answer:${Math.trunc(replyCommentId)} -->`;
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

/** Does `body` open with `marker` as its whole first line (how our sticky comments begin)? */
export function startsWithMarker(body: string, marker: string): boolean {
  return body === marker || body.startsWith(`${marker}\n`) || body.startsWith(`${marker}\r\n`);
}

/** Is `line` the marker of some model's overflow comment (any model)? */
export function isModelCommentMarker(line: string): boolean {
  return /^<!-- gadfly-model:[^ ]* -->$/.test(line);
}

/**
 * The fingerprint in an inline comment's `<!-- gadfly-finding:… -->` marker, decoded;
 * null when there is none or its encoding is broken (a comment edited by hand must not
 * stop a round from recording the others).
 */
export function findingMarkerIn(body: string): string | null {
  const encoded = /<!-- gadfly-finding:([^ ]+) -->/.exec(body)?.[1];
  if (encoded === undefined) return null;
  try {
    return decodeURIComponent(encoded);
  } catch {
    return null;
  }
}
