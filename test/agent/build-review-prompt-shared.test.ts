import { afterEach, describe, expect, it, vi } from "vitest";
import { buildReviewPrompt, type ReviewPromptInput } from "../../src/agent/build-review-prompt.js";
import { lens, promptInput } from "./helpers/review-fixtures.js";

// Counts the fencing (defuse, hash, fence) of what the pull request's author wrote.
const fenced = vi.hoisted(() => ({ count: 0 }));
vi.mock("../../src/agent/fence-untrusted.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../src/agent/fence-untrusted.js")>();
  return {
    ...original,
    fenceUntrusted: (...args: Parameters<typeof original.fenceUntrusted>) => {
      fenced.count += 1;
      return original.fenceUntrusted(...args);
    },
  };
});

afterEach(() => {
  fenced.count = 0;
});

const LENSES = ["security", "correctness", "maintainability", "performance", "error-handling"];

describe("buildReviewPrompt's shared opening", () => {
  it("fences a round's input once for all its lenses, and gives each the same texts", async () => {
    const input: ReviewPromptInput = {
      ...promptInput,
      conventions: [{ source: "AGENTS.md", text: "Prefer named exports." }],
    };
    const prompts = [];
    for (const id of LENSES) prompts.push(buildReviewPrompt(await lens(id), input));
    // Title, description, changed files, diff and the one convention: once, not once per lens.
    expect(fenced.count).toBe(5);
    // What a fresh input (a copy) gets: built again, the same bytes.
    const fresh = buildReviewPrompt(await lens("security"), { ...input });
    expect(fenced.count).toBe(10);
    for (const prompt of prompts) {
      expect(prompt.system).toBe(fresh.system);
      expect(prompt.change).toBe(fresh.change);
    }
    expect(new Set(prompts.map((prompt) => prompt.lens)).size).toBe(LENSES.length);
  });

  it("builds again for the other access, and when the input changed since", async () => {
    const input: ReviewPromptInput = {
      ...promptInput,
      changedFiles: [...promptInput.changedFiles],
    };
    const security = await lens("security");
    const chat = buildReviewPrompt(security, input, "repo-tools");
    const agent = buildReviewPrompt(security, input, "agent");
    expect(agent.change).not.toBe(chat.change);
    expect(agent.system).not.toBe(chat.system);

    const changes: [string, (changed: ReviewPromptInput) => void][] = [
      ["the diff", (changed) => (changed.diff = `${changed.diff}\n+one more line`)],
      ["the title", (changed) => (changed.title = "Another title")],
      ["a changed file", (changed) => ((changed.changedFiles as string[])[1] = "src/other.js")],
      ["the note", (changed) => (changed.diffNote = "Two files left out.")],
      ["the style", (changed) => (changed.style = "full-diff")],
      ["the conventions", (changed) => (changed.conventions = [{ source: "X.md", text: "y" }])],
      [
        "a convention's text",
        (changed) =>
          (changed.conventions = changed.conventions?.map((convention) => ({
            ...convention,
            text: "z",
          }))),
      ],
    ];
    for (const [what, change] of changes) {
      const before = buildReviewPrompt(security, input);
      change(input);
      const after = buildReviewPrompt(security, input);
      expect(after, what).toEqual(buildReviewPrompt(security, structuredClone(input)));
      expect(after, what).not.toEqual(before);
    }
  });
});
