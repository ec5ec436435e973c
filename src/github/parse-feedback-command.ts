/** What a reply on a finding's thread says about it. */
export interface FeedbackCommand {
  kind: "dismiss" | "false_positive" | "undismiss";
  /** The words after `@gadfly dismiss` (bounded), or null. */
  reason: string | null;
}

/** A dismissal's reason is kept this long at most: it is a person's note, not a document. */
export const FEEDBACK_REASON_CHARS = 500;

const COMMANDS: Record<string, FeedbackCommand["kind"]> = {
  dismiss: "dismiss",
  "false-positive": "false_positive",
  false_positive: "false_positive",
  undismiss: "undismiss",
};

/**
 * The feedback command of a reply, or null: a line starting with the mention (`@gadfly`, the
 * first word of the repository's trigger phrase) and `dismiss [reason]`, `false-positive` or
 * `undismiss`, case-insensitive, outside code fences and block quotes (as trigger comments are
 * read). The first such line wins.
 */
export function parseFeedbackCommand(body: string, mention: string): FeedbackCommand | null {
  const wanted = mention.trim().toLowerCase();
  if (wanted === "") return null;
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
    if (!line.toLowerCase().startsWith(wanted)) continue;
    const match = /^\s+([a-z_-]+)(?=$|[\s.,:;!])[.,:;!]?\s*(.*)$/i.exec(line.slice(wanted.length));
    const command = match?.[1]?.toLowerCase();
    const kind = command === undefined ? undefined : COMMANDS[command];
    if (kind === undefined) continue;
    const reason = kind === "dismiss" ? (match?.[2] ?? "").trim() : "";
    return { kind, reason: reason === "" ? null : reason.slice(0, FEEDBACK_REASON_CHARS) };
  }
  return null;
}

/** The mention that starts a command: the trigger phrase's first word (`@gadfly` by default). */
export function mentionOf(triggerPhrase: string): string {
  return triggerPhrase.trim().split(/\s+/)[0] ?? "";
}
