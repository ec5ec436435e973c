import { describe, expect, it } from "vitest";
import { noUsage, type UsageFigures } from "../../src/accounting/index.js";
import { loadLenses } from "../../src/agent/load-lenses.js";
import type { ReviewPlan } from "../../src/config/resolve-review-plan.js";
import type { BudgetConfig, ModelConfig, ProviderConfig } from "../../src/config/schema.js";
import { renderLensAnswer } from "../../src/findings/findings-block.js";
import type { ChatModel } from "../../src/llm/language-model.js";
import type { ChangeSet } from "../../src/run/change-set.js";
import { reviewRound } from "../../src/run/review-round.js";
import { createReviewerLimiter } from "../../src/run/reviewer-limiter.js";
import { FIXTURE_REPO } from "../agent/helpers/temporary-workspace.js";
import { lensReport } from "../builders/lens-report.js";
import { FakeClock } from "../helpers/fake-clock.js";
import { type RequestParts, roundRequest } from "./round-request-fixture.js";

const providers: ProviderConfig[] = [{ name: "chat", type: "ollama", host: "http://127.0.0.1:9" }];
const models: ModelConfig[] = [
  { id: "alpha", provider: "chat" },
  { id: "beta", provider: "chat" },
];
const lensIds = ["security", "correctness"];

function planWith(budget: BudgetConfig, extra: Partial<ReviewPlan> = {}): ReviewPlan {
  return {
    models,
    lenses: lensIds,
    customLenses: [],
    ignore: [],
    publish: { inline: "agreed", minSeverity: "nit", maxInline: 30 },
    instructions: [],
    review: {
      lenses: lensIds,
      concurrency: 8,
      verify: false,
      maxTurns: 4,
      timeoutSeconds: 60,
      diffBudgetChars: 10_000,
      debounceSeconds: 0,
    },
    budget,
    ...extra,
  };
}

const change: ChangeSet = {
  title: "Add user lookup",
  description: "",
  headSha: "abc1234",
  files: [],
  packedDiff: "diff --git a/src/db.js b/src/db.js\n",
  included: ["src/db.js"],
  notReviewed: [],
  workspaceDir: FIXTURE_REPO,
};

/** Every lens answers clean in one call that costs 1,000 input and 100 output tokens. */
function countingModels() {
  const built: string[] = [];
  const createModel = (model: ModelConfig, _provider: ProviderConfig, lens: string): ChatModel => {
    built.push(`${model.id}/${lens}`);
    return {
      kind: "chat",
      provider: model.provider,
      modelId: model.id,
      async chat() {
        return {
          text: renderLensAnswer("No material issues found", []),
          toolCalls: [],
          finishReason: "stop",
          usage: { inputTokens: 1_000, outputTokens: 100 },
        };
      },
    };
  };
  return { built, createModel };
}

async function run(plan: ReviewPlan, parts: RequestParts = {}) {
  const { built, createModel } = countingModels();
  const base = {
    subject: { plan, providers, lenses: await loadLenses(), round: 1 },
    change,
    runtime: {
      env: {},
      signal: new AbortController().signal,
      // One lens at a time: each starts after the one before ended, so the cap is exact.
      limiter: createReviewerLimiter(1),
      clock: new FakeClock(),
      createModel,
    },
  };
  const result = await reviewRound(roundRequest(base, parts));
  const outcomes = result.reports.map(
    (report) =>
      `${report.model}/${report.lens}:${report.outcome}${report.failure === null ? "" : ` (${report.failure})`}`,
  );
  return { built, result, outcomes };
}

function spent(tokens: number, costUsd: number | null = 0): UsageFigures {
  return { ...noUsage(), inputTokens: tokens, costUsd };
}

describe("reviewRound under a budget", () => {
  it("skips the lenses not yet started once the round cap is reached; none is built", async () => {
    // Lens-major order: alpha/security (1,100), beta/security (2,200 ≥ 1,500), then the cap.
    const { built, result, outcomes } = await run(planWith({ roundTokens: 1_500 }));
    expect(built).toEqual(["alpha/security", "beta/security"]);
    const skip = "skipped (budget reached — round cap of 1,500 tokens)";
    expect(outcomes).toEqual([
      "alpha/security:done",
      `alpha/correctness:${skip}`,
      "beta/security:done",
      `beta/correctness:${skip}`,
    ]);
    expect(result.status.budget).toEqual({ reached: "round cap of 1,500 tokens" });
    expect(result.status.reviewers.map((r) => r.lenses.map((l) => l.state))).toEqual([
      ["done", "skipped"],
      ["done", "skipped"],
    ]);
  });

  it("runs the whole plan when the round stays under its cap", async () => {
    const { built, result } = await run(planWith({ roundTokens: 4_400 + 1 }));
    expect(built).toHaveLength(4);
    expect(result.status.budget).toBeUndefined();
    expect(result.reports.every((report) => report.outcome === "done")).toBe(true);
  });

  it("lets lenses already in flight finish: with room for all four at once, none is skipped", async () => {
    const { built } = await run(planWith({ roundTokens: 1 }), {
      runtime: { limiter: createReviewerLimiter(8) },
    });
    // Each took its slot with nothing spent yet: the documented overshoot of lenses in flight.
    expect(built).toHaveLength(4);
  });

  it("counts lenses finished before a restart toward the round cap", async () => {
    const finished = [
      lensReport({
        model: "alpha",
        provider: "chat",
        usage: { inputTokens: 2_000, outputTokens: 0 },
      }),
    ];
    const { built, outcomes } = await run(planWith({ roundTokens: 1_500 }), {
      journal: { lenses: { finished } },
    });
    expect(built).toEqual([]);
    expect(outcomes.filter((line) => line.includes("budget reached"))).toHaveLength(3);
  });

  it("keeps the cap on a round resumed with every lens already ended", async () => {
    const skipped = (model: string, lens: string) =>
      lensReport({
        model,
        provider: "chat",
        lens,
        outcome: "skipped",
        verdict: null,
        statedVerdict: null,
        failure: "budget reached — round cap of 1,500 tokens",
        usage: { inputTokens: 0, outputTokens: 0 },
      });
    const finished = [
      lensReport({ model: "alpha", provider: "chat", lens: "security" }),
      lensReport({ model: "beta", provider: "chat", lens: "security" }),
      skipped("alpha", "correctness"),
      skipped("beta", "correctness"),
    ];
    const { built, result } = await run(planWith({ roundTokens: 1_500 }), {
      journal: { lenses: { finished } },
    });
    expect(built).toEqual([]);
    expect(result.status.budget).toEqual({ reached: "round cap of 1,500 tokens" });
  });

  it("adds the installation's spend today to the round's for the daily token cap", async () => {
    const asked: number[] = [];
    const { built, result } = await run(planWith({ dailyTokens: 5_000 }), {
      runtime: {
        dailySpend: async () => {
          asked.push(asked.length);
          return spent(4_000);
        },
      },
    });
    // 4,000 + 1,100 ≥ 5,000 after the first lens.
    expect(built).toEqual(["alpha/security"]);
    expect(result.status.budget?.reached).toBe("daily cap of 5,000 tokens");
    // Read as each lens was about to start, until the cap was reached.
    expect(asked).toHaveLength(2);
  });

  it("prices the round's tokens for the daily cost cap", async () => {
    // $1,000 per million tokens: each lens costs $1.10; $0.50 was spent earlier today.
    const pricing = {
      alpha: { input: 1_000, output: 1_000 },
      beta: { input: 1_000, output: 1_000 },
    };
    const { built, result } = await run(planWith({ dailyCostUsd: 2 }, { pricing }), {
      runtime: { dailySpend: async () => spent(500, 0.5) },
    });
    expect(built).toEqual(["alpha/security", "beta/security"]);
    expect(result.status.budget?.reached).toBe("daily cap of $2.00");
  });

  it("stops a reader's round at readers' share of the daily cap, mid-round, while the whole cap has room", async () => {
    // Cap 10,000, readers' share 0.3 = 3,000; other readers spent 1,000, writers 4,000 more.
    const readers = { share: 0.3, othersToday: async () => spent(1_000) };
    const reader = await run(planWith({ dailyTokens: 10_000 }), {
      runtime: { dailySpend: async () => spent(5_000), readerShare: readers },
    });
    // 1,000 + 1,100 + 1,100 ≥ 3,000 after the second lens: the rest is not started.
    expect(reader.built).toEqual(["alpha/security", "beta/security"]);
    const reason =
      "readers' share of today's budget is spent (30% of the daily caps: 3,000 tokens); a maintainer can run `@gadfly review`";
    expect(reader.result.status.budget?.reached).toBe(reason);
    expect(reader.outcomes).toContain(`alpha/correctness:skipped (budget reached — ${reason})`);
    // At its claim already over the share: no lens starts at all.
    const spentAlready = await run(planWith({ dailyTokens: 10_000 }), {
      runtime: {
        dailySpend: async () => spent(5_000),
        readerShare: { share: 0.3, othersToday: async () => spent(3_000) },
      },
    });
    expect(spentAlready.built).toEqual([]);
    // A writer's round on the same day runs in full against the whole cap.
    const writer = await run(planWith({ dailyTokens: 10_000 }), {
      runtime: { dailySpend: async () => spent(5_000) },
    });
    expect(writer.built).toHaveLength(4);
    // Without a daily cap a share limits nothing.
    const uncapped = await run(planWith({}), { runtime: { readerShare: readers } });
    expect(uncapped.built).toHaveLength(4);
  });

  it("holds a reader's round to the cost share too", async () => {
    const pricing = {
      alpha: { input: 1_000, output: 1_000 },
      beta: { input: 1_000, output: 1_000 },
    };
    const { built, result } = await run(planWith({ dailyCostUsd: 10 }, { pricing }), {
      runtime: {
        dailySpend: async () => spent(0, 0),
        readerShare: { share: 0.25, othersToday: async () => spent(0, 1.5) },
      },
    });
    // $1.50 + $1.10 ≥ $2.50 after the first lens.
    expect(built).toEqual(["alpha/security"]);
    expect(result.status.budget?.reached).toContain("(25% of the daily caps: $2.50)");
  });

  it("checks no daily cap without the installation's spend (the CLI), the round cap still", async () => {
    const { built } = await run(planWith({ dailyTokens: 1 }));
    expect(built).toHaveLength(4);
  });

  it("says on the board that the cross-examination will not run either, when it is on", async () => {
    const { result } = await run(
      planWith(
        { roundTokens: 1_500 },
        {
          crossExamination: {
            enabled: true,
            minSeverity: "medium",
            maxChallenges: 10,
            maxTurns: 4,
            timeoutSeconds: 180,
          },
        },
      ),
    );
    expect(result.status.budget).toEqual({
      reached: "round cap of 1,500 tokens",
      crossExaminationSkipped: true,
    });
  });

  it("shows a downshift on the board from the first status", async () => {
    const { result } = await run(planWith({}), {
      subject: { downshift: "large change (1,234 lines): security only" },
    });
    expect(result.status.budget).toEqual({
      downshift: "large change (1,234 lines): security only",
      downshiftBy: "budget.downshift",
    });
  });
});
