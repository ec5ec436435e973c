import { MAX_QUESTION_CHARS } from "../agent/index.js";
import type { ThreadRequest } from "../run/index.js";

/** Words after the mention that are someone else's command, not a question. */
const NOT_QUESTIONS = new Set([
  "dismiss",
  "false-positive",
  "false_positive",
  "undismiss",
  "review",
]);

/**
 * What a reply on a finding's thread asks of Gadfly, or null: the first line starting with the
 * mention (`@gadfly`), outside code fences and block quotes, then `recheck` (re-examine the
 * finding now) or any other words (a question: that line's words and the lines after it,
 * bounded). The feedback commands and the review trigger are not questions.
 */
export function parseThreadRequest(body: string, mention: string): ThreadRequest | null {
  const wanted = mention.trim().toLowerCase();
  if (wanted === "") return null;
  const lines = body.split(/\r?\n/);
  let fence: string | null = null;
  for (const [index, rawLine] of lines.entries()) {
    const line = rawLine.trim();
    const fenceMatch = /^(`{3,}|~{3,})/.exec(line);
    if (fenceMatch?.[1] !== undefined) {
      if (fence === null) fence = fenceMatch[1];
      else if (line.startsWith(fence) && line.replace(/[`~]/g, "") === "") fence = null;
      continue;
    }
    if (fence !== null || line.startsWith(">")) continue;
    if (!line.toLowerCase().startsWith(wanted)) continue;
    const rest = line.slice(wanted.length);
    if (rest !== "" && !/^[\s,:]/.test(rest)) continue;
    const words = rest.replace(/^[\s,:]+/, "");
    const first = /^[a-z_-]+/i.exec(words)?.[0]?.toLowerCase() ?? "";
    if (NOT_QUESTIONS.has(first)) return null;
    if (first === "recheck" && /^recheck[\s.!]*$/i.test(words)) return { kind: "recheck" };
    const question = [words, ...lines.slice(index + 1)].join("\n").trim();
    if (question === "") return null;
    return { kind: "question", question: question.slice(0, MAX_QUESTION_CHARS) };
  }
  return null;
}
