import { describe, expect, it } from "vitest";
import { loadLenses } from "../../src/agent/load-lenses.js";
import type { ReviewPlan } from "../../src/config/resolve-review-plan.js";
import { parseUnifiedDiff } from "../../src/diff/parse-unified-diff.js";
import type { ChatModel, Message } from "../../src/llm/index.js";
import { convertToAnthropicMessages } from "../../src/llm/providers/anthropic/convert-to-anthropic-messages.js";
import { reviewChange } from "../../src/run/review-change.js";
import { createReviewerLimiter } from "../../src/run/reviewer-limiter.js";
import { FIXTURE_REPO } from "../agent/helpers/temporary-workspace.js";

/*
 * Prefix caching across lenses, through a whole round: every lens of one model opens with the
 * same bytes (system text, then the change), and the lens comes after them, in the order each
 * provider sends them (Anthropic lifts system text out and merges consecutive user turns).
 */

const LENSES = ["security", "correctness", "maintainability", "performance", "error-handling"];

const diff = [
  "diff --git a/src/db.js b/src/db.js",
  "--- a/src/db.js",
  "+++ b/src/db.js",
  "@@ -6,0 +7,2 @@",
  "+const sql = 'SELECT ' + name;",
  "+const offset = page * pageSize + 1;",
  "",
].join("\n");

async function firstRequests(): Promise<Message[][]> {
  const first: Message[][] = [];
  const model: ChatModel = {
    kind: "chat",
    provider: "p",
    modelId: "m",
    async chat(request) {
      if (!request.messages.some((message) => message.role === "assistant")) {
        first.push(request.messages);
      }
      return {
        text: "Fine.\n\nVERDICT: No material issues found\n```gadfly-findings\n[]\n```",
        toolCalls: [],
        finishReason: "stop",
        usage: { inputTokens: 1, outputTokens: 1 },
      };
    },
  };
  const plan = {
    models: [{ id: "m", provider: "p" }],
    lenses: LENSES,
    customLenses: [],
    ignore: [],
    publish: { inline: "agreed", minSeverity: "nit", maxInline: 30 },
    instructions: [{ paths: ["src/**"], text: "Queries take parameters." }],
    review: {
      lenses: LENSES,
      concurrency: 5,
      verify: true,
      maxTurns: 4,
      timeoutSeconds: 60,
      diffBudgetChars: 24_000,
      debounceSeconds: 0,
    },
  } as ReviewPlan;
  await reviewChange({
    subject: {
      plan,
      providers: [{ name: "p", type: "ollama", host: "http://127.0.0.1:9" }],
      lenses: await loadLenses(),
      round: 1,
    },
    change: {
      source: {
        title: "Add user lookup",
        description: "Adds a query.",
        headSha: "a".repeat(40),
        files: parseUnifiedDiff(diff),
        workspaceDir: FIXTURE_REPO,
        conventionFiles: [{ path: "AGENTS.md", text: "Prefer named exports.", cut: false }],
      },
    },
    runtime: {
      env: {},
      secrets: [],
      signal: new AbortController().signal,
      limiter: createReviewerLimiter(5),
      createModel: () => model,
    },
  });
  return first;
}

describe("the prompt's cached prefix across the lenses of one model", () => {
  it("is byte-identical for the five lenses, the lens after it", async () => {
    const requests = await firstRequests();
    expect(requests).toHaveLength(LENSES.length);
    const prefixes = new Set(requests.map((messages) => JSON.stringify(messages.slice(0, 2))));
    expect(prefixes.size).toBe(1);
    const [system, change] = requests[0] ?? [];
    expect(system?.content).toContain("Prefer named exports.");
    expect(system?.content).toContain("Queries take parameters.");
    expect(change?.content).toContain("modified src/db.js (+2 -0) — shown below");
    const lensIds = requests.map(
      (messages) => /\(lens: ([a-z-]+)\)/.exec(messages[2]?.content ?? "")?.[1],
    );
    expect(new Set(lensIds)).toEqual(new Set(LENSES));
    for (const messages of requests) {
      expect(messages.map((message) => message.role)).toEqual(["system", "user", "user"]);
      expect(JSON.stringify(messages.slice(0, 2))).not.toContain("(lens: ");
    }
  });

  it("keeps Anthropic's cache breakpoints on that prefix: the system text and the change block", async () => {
    const requests = await firstRequests();
    const converted = requests.map((messages) =>
      convertToAnthropicMessages(messages, { cache: true }),
    );
    const stable = converted.map((prompt) => {
      const turn = prompt.messages[0];
      const blocks = Array.isArray(turn?.content) ? turn.content : [];
      return JSON.stringify({ system: prompt.system, first: blocks[0] });
    });
    expect(new Set(stable).size).toBe(1);
    for (const prompt of converted) {
      expect(prompt.system.at(-1)?.cache_control).toEqual({ type: "ephemeral" });
      const blocks = Array.isArray(prompt.messages[0]?.content) ? prompt.messages[0].content : [];
      expect(blocks).toHaveLength(2);
      expect(blocks[0]).toMatchObject({ cache_control: { type: "ephemeral" } });
      expect(JSON.stringify(blocks[1])).toContain("## Your lens:");
      expect(JSON.stringify(prompt.system)).not.toContain("(lens: ");
    }
  });
});
