/**
 * Whether a comment asks for a review: a line that starts with the trigger
 * phrase (case-insensitive), outside code fences and block quotes, so quoting
 * someone's "@gadfly review" or documenting the phrase starts nothing.
 */
export function isTriggerComment(body: string, phrase: string): boolean {
  const wanted = phrase.trim().toLowerCase();
  if (wanted === "") return false;
  let fence: string | null = null;
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
    if (lower.startsWith(wanted)) {
      const next = lower.charAt(wanted.length);
      // "@gadfly reviewer" is another word; "@gadfly review please" and "@gadfly review." are the phrase.
      if (next === "" || !/[\p{L}\p{N}_-]/u.test(next)) return true;
    }
  }
  return false;
}
