/** What a trigger comment asks for: a round, and whether it must review the whole PR. */
export interface TriggerRequest {
  /** `@gadfly review full`: the whole pull request, even when only a push's change would do. */
  full: boolean;
}

/**
 * Whether a comment asks for a review: a line that starts with the trigger phrase
 * (case-insensitive), outside code fences and block quotes, so quoting someone's
 * "@gadfly review" or documenting the phrase starts nothing. The word `full` right after the
 * phrase asks for a full review; any other words after it change nothing.
 */
export function parseTriggerComment(body: string, phrase: string): TriggerRequest | null {
  const wanted = phrase.trim().toLowerCase();
  if (wanted === "") return null;
  let fence: string | null = null;
  let found: TriggerRequest | null = null;
  for (const rawLine of body.split(/\r?\n/)) {
    const line = rawLine.trim();
    const fenceMatch = /^(`{3,}|~{3,})/.exec(line);
    if (fenceMatch?.[1] !== undefined) {
      if (fence === null) fence = fenceMatch[1];
      else if (line.startsWith(fence) && line.replace(/[`~]/g, "") === "") fence = null;
      continue;
    }
    if (fence !== null || line.startsWith(">")) continue;
    const lower = line.toLowerCase();
    if (!lower.startsWith(wanted)) continue;
    const next = lower.charAt(wanted.length);
    // "@gadfly reviewer" is another word; "@gadfly review please" and "@gadfly review." are the phrase.
    if (next !== "" && /[\p{L}\p{N}_-]/u.test(next)) continue;
    // "full" as the next word, ended like the phrase is ("full." and "full, please" count;
    // "fully" and "full-text" do not). One such line anywhere makes the request full.
    const full = /^\s+full(?![\p{L}\p{N}_-])/u.test(lower.slice(wanted.length));
    if (full) return { full: true };
    found = { full: false };
  }
  return found;
}
