import { buildReviewPrompt } from "./build-review-prompt.js";
import type { ReviewSession } from "./review-session.js";

/** The whole prompt an agent CLI gets: it has no separate system message. */
export function agentPrompt(session: ReviewSession): string {
  const prompt = buildReviewPrompt(session.prompt.lens, session.prompt.input, "agent");
  return `${prompt.system}\n\n---\n\n${prompt.user}`;
}
