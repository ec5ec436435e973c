import { fenceUntrusted } from "./fence-untrusted.js";
import type { LensDefinition } from "./load-lenses.js";
import { reviewContract, type ToolAccess } from "./review-contract.js";
import type { ReviewSession } from "./review-session.js";

/** What a reviewer is told about the pull request. All of it but `diffNote` is untrusted. */
export interface ReviewPromptInput {
  title: string;
  description: string;
  /** The unified diff, already packed to the budget. */
  diff: string;
  /** Paths of the changed files (new side). */
  changedFiles: readonly string[];
  /** Our own note about the diff (files left out, truncation); trusted, shown as is. */
  diffNote?: string | undefined;
}

export interface ReviewPrompt {
  system: string;
  user: string;
}

/** What buildReviewPrompt needs besides the way the model reads the code. */
export interface BuildOptions {
  lens: LensDefinition;
  input: ReviewPromptInput;
}

/** The system and user messages of one (model, lens) review. */
export function buildReviewPrompt(
  lens: LensDefinition,
  input: ReviewPromptInput,
  access: ToolAccess = "repo-tools",
): ReviewPrompt {
  // "(lens: id)" is also a stable marker for recordings and the fake model servers.
  const system = [
    `You are Gadfly, an adversarial code reviewer. You review one pull request through the ${lens.emoji} ${lens.title} lens (lens: ${lens.id}).`,
    lens.prompt.trim(),
    reviewContract(access),
  ].join("\n\n");

  const description = input.description.trim() === "" ? "(no description)" : input.description;
  const files = input.changedFiles.length === 0 ? "(none)" : input.changedFiles.join("\n");
  const sections = [
    `Review this pull request through the ${lens.emoji} ${lens.title} lens.`,
    fenceUntrusted("Title", input.title),
    fenceUntrusted("Description", description, "markdown"),
    fenceUntrusted(`Changed files (${input.changedFiles.length})`, files),
    fenceUntrusted("Diff", input.diff, "diff"),
  ];
  if (input.diffNote !== undefined && input.diffNote.trim() !== "") {
    sections.push(`Note from Gadfly about the diff: ${input.diffNote.trim()}`);
  }
  sections.push(
    "Investigate with the tools, then give your final answer: prose, the `VERDICT:` line and the findings block, as the output contract says.",
  );
  return { system, user: sections.join("\n\n") };
}

/** The whole prompt an agent CLI gets: it has no separate system message. */
export function agentPrompt(session: ReviewSession): string {
  const prompt = buildReviewPrompt(session.prompt.lens, session.prompt.input, "agent");
  return `${prompt.system}\n\n---\n\n${prompt.user}`;
}
