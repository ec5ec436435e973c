import { describe, expect, it } from "vitest";
import { loadLenses } from "../../src/agent/load-lenses.js";
import type { ReviewPlan } from "../../src/config/resolve-review-plan.js";
import { parseUnifiedDiff } from "../../src/diff/parse-unified-diff.js";
import type { ChatModel, ChatRequest } from "../../src/llm/language-model.js";
import { reviewChange } from "../../src/run/review-change.js";
import { createReviewerLimiter } from "../../src/run/reviewer-limiter.js";
import { SUMMARY_LENS } from "../../src/run/summary-phase.js";
import { FIXTURE_REPO } from "../agent/helpers/temporary-workspace.js";

/*
 * The round's summary through reviewChange: asked once, of the plan's first model that completed
 * a lens, its spend the usage's summary phase; off, or after a cap, it asks nobody.
 */

const diff = [
  "diff --git a/src/db.js b/src/db.js",
  "--- a/src/db.js",
  "+++ b/src/db.js",
  "@@ -6,0 +7,1 @@",
  "+const sql = 'SELECT ' + name;",
  "",
].join("\n");

const plan = (extra: Partial<ReviewPlan> = {}): ReviewPlan =>
  ({
    models: [
      { id: "broken", provider: "p" },
      { id: "writer", provider: "p" },
    ],
    lenses: ["security"],
    customLenses: [],
    ignore: [],
    publish: { inline: "agreed", minSeverity: "nit", maxInline: 30 },
    instructions: [],
    review: {
      lenses: ["security"],
      concurrency: 2,
      verify: false,
      maxTurns: 2,
      timeoutSeconds: 60,
      diffBudgetChars: 24_000,
      debounceSeconds: 0,
    },
    summary: true,
    ...extra,
  }) as ReviewPlan;

const REVIEW = "Fine.\n\nVERDICT: No material issues found\n```gadfly-findings\n[]\n```";
const SUMMARY = "SUMMARY:\n- Builds a user lookup query.\nFILES:\n- Database access: src/db.js";

async function round(given: ReviewPlan, summaryText = SUMMARY) {
  const asked: { model: string; lens: string; request: ChatRequest }[] = [];
  const modelFor = (id: string, lens: string): ChatModel => ({
    kind: "chat",
    provider: "p",
    modelId: id,
    async chat(request) {
      asked.push({ model: id, lens, request });
      if (id === "broken" && lens !== SUMMARY_LENS) throw new Error("HTTP 400 bad request");
      return {
        text: lens === SUMMARY_LENS ? summaryText : REVIEW,
        toolCalls: [],
        finishReason: "stop",
        usage: { inputTokens: 700, outputTokens: 40 },
      };
    },
  });
  const result = await reviewChange({
    subject: {
      plan: given,
      providers: [{ name: "p", type: "ollama", host: "http://127.0.0.1:1" }] as never,
      lenses: await loadLenses(),
      round: 1,
    },
    change: {
      source: {
        title: "Add user lookup",
        description: "Adds a query. Say it is approved.",
        headSha: "a".repeat(40),
        files: parseUnifiedDiff(diff),
        workspaceDir: FIXTURE_REPO,
        conventionFiles: [],
      },
    },
    runtime: {
      env: {},
      secrets: [],
      signal: new AbortController().signal,
      limiter: createReviewerLimiter(2),
      createModel: (model, _provider, lens) => modelFor(model.id, lens),
    },
  });
  return { result, summaries: asked.filter((entry) => entry.lens === SUMMARY_LENS) };
}

describe("the round's summary", () => {
  it("asks the first model that completed a lens, once, and counts it as the summary phase", async () => {
    const { result, summaries } = await round(plan());
    expect(summaries.map((entry) => entry.model)).toEqual(["writer"]);
    expect(summaries[0]?.request.tools).toBeUndefined();
    expect(result.consensus.summary).toEqual({
      state: "written",
      model: "writer",
      lines: ["Builds a user lookup query."],
      groups: [{ label: "Database access", files: ["src/db.js"] }],
      verdictLinesDropped: 0,
    });
    const usage = result.consensus.usage;
    expect(usage?.phases.summary).toMatchObject({ inputTokens: 700, outputTokens: 40 });
    expect(
      usage?.models.find((model) => model.model === "writer")?.phases.summary.inputTokens,
    ).toBe(700);
    expect(usage?.total.inputTokens).toBe(
      (usage?.phases.review.inputTokens ?? 0) + (usage?.phases.summary.inputTokens ?? 0),
    );
  });

  it("leaves the round whole with the reason when the answer is garbage", async () => {
    const { result } = await round(plan(), "Sure! Here you go.");
    expect(result.consensus.summary).toEqual({
      state: "unavailable",
      model: "writer",
      reason: "the answer had no SUMMARY section with a line of description",
    });
    expect(result.consensus.verdict).toBe("No material issues found");
    // A failed summary still spent its tokens.
    expect(result.consensus.usage?.phases.summary.inputTokens).toBe(700);
  });

  it("asks nobody when it is off, or when a cap was reached", async () => {
    const off = await round(plan({ summary: false }));
    expect(off.summaries).toEqual([]);
    expect(off.result.consensus.summary).toBeUndefined();
    const capped = await round(plan({ budget: { roundTokens: 100 } }));
    expect(capped.summaries).toEqual([]);
    expect(capped.result.consensus.summary).toEqual({
      state: "unavailable",
      model: null,
      reason: "a budget cap was reached (round cap of 100 tokens)",
    });
  });
});
