import { threadAnswerMarker } from "./markers.js";
import type { RenderOptions } from "./render-options.js";
import { defaultTemplateEngine } from "./template-engine.js";

/** One re-checking model's answer, as the re-check recorded it (model text: escaped). */
export interface RecheckAnswer {
  model: string;
  verdict: "confirm" | "refute" | "unsure";
  reason: string;
  /** The file:line it says it checked; absent for a failed re-check. */
  checked?: string;
}

/** What a thread reply says: an answer, a re-check's result, a failure, or the day's limit. */
export type ThreadReply =
  | { kind: "answer"; model: string; answer: string }
  | { kind: "recheck"; result: "still-there" | "fixed" | "unsure"; answers: RecheckAnswer[] }
  | { kind: "failed"; reason: string }
  | { kind: "limit"; perDay: number }
  /** Its answerer stopped (a crash, a restart) before it answered: ask again, not counted. */
  | { kind: "interrupted"; request: "question" | "recheck" };

const HEADLINES = {
  "still-there": { emoji: "🔴", headline: "Still there" },
  fixed: { emoji: "✅", headline: "Fixed" },
  unsure: { emoji: "❔", headline: "Not settled — kept open" },
} as const;

const VERDICT_WORDS = {
  confirm: "still there",
  refute: "fixed",
  unsure: "could not tell",
} as const;

/**
 * Our reply in a finding's thread, opened by a marker naming the reply it answers (so a
 * reply GitHub created without confirming is found, not posted twice). `head` is the commit
 * the answer read; `usage` what it spent, in words (usageLine).
 */
export function renderThreadAnswer(
  reply: ThreadReply,
  context: { replyCommentId: number; head: string; usage?: string },
  options: RenderOptions = {},
): string {
  const engine = options.engine ?? defaultTemplateEngine();
  return engine.render("thread-answer", {
    marker: threadAnswerMarker(context.replyCommentId),
    head: context.head.slice(0, 7),
    usage: context.usage ?? "",
    answered: reply.kind === "answer",
    model: reply.kind === "answer" ? reply.model : "",
    answer: reply.kind === "answer" ? reply.answer : "",
    rechecked:
      reply.kind === "recheck"
        ? {
            ...HEADLINES[reply.result],
            models: reply.answers.map((answer) => answer.model).join(", "),
            answers: reply.answers.map((answer) => ({
              model: answer.model,
              verdict: VERDICT_WORDS[answer.verdict],
              checked: answer.checked ?? "",
              reason: answer.reason,
            })),
          }
        : false,
    failed: reply.kind === "failed" ? reply.reason : "",
    limited: reply.kind === "limit" ? reply.perDay : 0,
    interrupted:
      reply.kind === "interrupted"
        ? { again: reply.request === "recheck" ? "@gadfly recheck" : "@gadfly <your question>" }
        : false,
  });
}
