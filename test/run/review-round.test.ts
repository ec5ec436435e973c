import { describe, expect, it } from "vitest";
import { loadLenses } from "../../src/agent/load-lenses.js";
import type { ReviewPlan } from "../../src/config/resolve-review-plan.js";
import type { ModelConfig, ProviderConfig } from "../../src/config/schema.js";
import { renderLensAnswer } from "../../src/findings/findings-block.js";
import { ModelError } from "../../src/llm/errors.js";
import type { ChatModel } from "../../src/llm/language-model.js";
import type { Message } from "../../src/llm/message.js";
import type { ChangeSet } from "../../src/run/change-set.js";
import type { RoundRequest } from "../../src/run/index.js";
import { reviewRound } from "../../src/run/review-round.js";
import { createReviewerLimiter } from "../../src/run/reviewer-limiter.js";
import type { RoundStatus } from "../../src/run/round-status.js";
import { FIXTURE_REPO } from "../agent/helpers/temporary-workspace.js";
import { lensReport } from "../builders/lens-report.js";
import { type RequestParts, roundRequest } from "./round-request-fixture.js";

const providers: ProviderConfig[] = [{ name: "local", type: "ollama", host: "http://127.0.0.1:9" }];
const models: ModelConfig[] = [
  { id: "alpha", provider: "local" },
  { id: "beta", provider: "local" },
];
const lensIds = ["security", "correctness"];

function plan(overrides: Partial<ReviewPlan["review"]> = {}): ReviewPlan {
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
      ...overrides,
    },
  };
}

const change: ChangeSet = {
  title: "Add user lookup",
  description: "",
  headSha: "abc1234",
  files: [],
  packedDiff: "diff --git a/src/db.js b/src/db.js\n",
  included: ["src/db.js"],
  notReviewed: [{ path: "logo.png", reason: "binary" }],
  workspaceDir: FIXTURE_REPO,
};

/** Models that answer at once, tracking how many calls are in flight across all of them. */
function instantModels(gate?: Promise<void>) {
  const counter = { inFlight: 0, maxInFlight: 0, created: [] as string[] };
  const create = (model: ModelConfig, _provider: ProviderConfig, lens: string): ChatModel => {
    counter.created.push(`${model.id}/${lens}`);
    return {
      kind: "chat",
      provider: model.provider,
      modelId: model.id,
      async chat() {
        counter.inFlight++;
        counter.maxInFlight = Math.max(counter.maxInFlight, counter.inFlight);
        await (gate ?? Promise.resolve());
        await new Promise((resolve) => setImmediate(resolve));
        counter.inFlight--;
        return {
          text: renderLensAnswer("No material issues found", []),
          toolCalls: [],
          finishReason: "stop",
          usage: { inputTokens: 1, outputTokens: 1 },
        };
      },
    };
  };
  return { counter, create };
}

async function options(parts: RequestParts): Promise<RoundRequest<ChangeSet>> {
  const base = {
    subject: { plan: plan(), providers, lenses: await loadLenses(), round: 1 },
    change,
    runtime: { env: {}, signal: new AbortController().signal, limiter: createReviewerLimiter(8) },
  };
  return roundRequest(base, parts);
}

describe("reviewRound", () => {
  it("runs every model through every lens and returns reports in config order", async () => {
    const { counter, create } = instantModels();
    const statuses: RoundStatus[] = [];
    const persisted: string[] = [];
    const result = await reviewRound(
      await options({
        runtime: { createModel: create },
        journal: {
          onStatus: (status) => statuses.push(status),
          lenses: {
            onEnded: async (report) => {
              persisted.push(`${report.model}/${report.lens}`);
            },
          },
        },
      }),
    );
    expect(
      result.reports.map((report) => `${report.model}/${report.lens}:${report.outcome}`),
    ).toEqual([
      "alpha/security:done",
      "alpha/correctness:done",
      "beta/security:done",
      "beta/correctness:done",
    ]);
    expect(persisted.sort()).toEqual(counter.created.sort());
    expect(result.status.finished).toBe(true);
    expect(result.status.notReviewed).toEqual([{ path: "logo.png", reason: "binary" }]);
    expect(
      statuses[0]?.reviewers.flatMap((reviewer) => reviewer.lenses.map((lens) => lens.state)),
    ).toEqual(["queued", "queued", "queued", "queued"]);
    expect(
      statuses.at(-1)?.reviewers.flatMap((reviewer) => reviewer.lenses.map((lens) => lens.verdict)),
    ).toEqual([
      "No material issues found",
      "No material issues found",
      "No material issues found",
      "No material issues found",
    ]);
  });

  it("shares one cap on reviews in flight across concurrent rounds", async () => {
    const { counter, create } = instantModels();
    const limiter = createReviewerLimiter(3);
    await Promise.all([
      reviewRound(await options({ runtime: { createModel: create, limiter } })),
      reviewRound(
        await options({ subject: { round: 2 }, runtime: { createModel: create, limiter } }),
      ),
      reviewRound(
        await options({ subject: { round: 3 }, runtime: { createModel: create, limiter } }),
      ),
    ]);
    expect(counter.created).toHaveLength(12);
    expect(counter.maxInFlight).toBe(3);
  });

  it("does not call a model again for a lens finished before a restart", async () => {
    const { counter, create } = instantModels();
    const earlier = lensReport({
      model: "beta",
      provider: "local",
      lens: "correctness",
      text: "from before the restart",
    });
    const result = await reviewRound(
      await options({
        runtime: { createModel: create },
        journal: { lenses: { finished: [earlier] }, resumed: true },
      }),
    );
    expect(counter.created.sort()).toEqual([
      "alpha/correctness",
      "alpha/security",
      "beta/security",
    ]);
    expect(result.reports[3]).toBe(earlier);
    expect(result.status.resumed).toBe(true);
  });

  it("fails a lens whose model cannot be created, with the reason, never clean", async () => {
    const { create } = instantModels();
    const result = await reviewRound(
      await options({
        runtime: {
          createModel: (model, provider, lens) => {
            if (model.id === "beta")
              throw new ModelError("local: the API key variable LOCAL_KEY is not set");
            return create(model, provider, lens);
          },
        },
      }),
    );
    const beta = result.reports.filter((report) => report.model === "beta");
    expect(beta.map((report) => [report.outcome, report.verdict, report.failure])).toEqual([
      ["failed", null, "local: the API key variable LOCAL_KEY is not set"],
      ["failed", null, "local: the API key variable LOCAL_KEY is not set"],
    ]);
    expect(result.status.reviewers[1]?.lenses.map((lens) => lens.state)).toEqual([
      "failed",
      "failed",
    ]);
  });

  it("cancels queued and running lenses when its signal aborts, and still returns every report", async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { create } = instantModels(gate);
    const controller = new AbortController();
    const limiter = createReviewerLimiter(1);
    const round = reviewRound(
      await options({ runtime: { createModel: create, limiter, signal: controller.signal } }),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort("superseded by def5678");
    release();
    const result = await round;
    expect(result.reports).toHaveLength(4);
    expect(
      result.reports.filter((report) => report.outcome === "cancelled").length,
    ).toBeGreaterThanOrEqual(3);
    expect(
      result.reports.every((report) => report.outcome !== "done" || report.verdict !== null),
    ).toBe(true);
    expect(limiter.pending).toBe(0);
  });

  it("never publishes a provider key a model repeats, in its text or its findings", async () => {
    const key = "PLANTED0123456789abcdef";
    const transcripts: { model: string; lens: string; messages: Message[] }[] = []; // no token shape: only redaction by value catches it
    const leaky: ChatModel = {
      kind: "chat",
      provider: "local",
      modelId: "alpha",
      async chat() {
        return {
          text: renderLensAnswer(
            "Minor issues",
            [
              {
                file: "src/db.js",
                line: 1,
                endLine: 1,
                severity: "low",
                confidence: "high",
                title: `Key ${key} is hard-coded`,
                body: `The file holds ${key}.`,
              },
            ],
            `I found the key ${key} in the environment.`,
          ),
          toolCalls: [],
          finishReason: "stop",
          usage: { inputTokens: 1, outputTokens: 1 },
        };
      },
    };
    const result = await reviewRound(
      await options({
        subject: {
          providers: [
            {
              name: "local",
              type: "openai",
              baseURL: "http://127.0.0.1:9/v1",
              apiKeyEnv: "LOCAL_KEY",
            },
          ],
          plan: { ...plan(), models: [{ id: "alpha", provider: "local" }] },
        },
        runtime: { env: { LOCAL_KEY: key }, createModel: () => leaky },
        journal: {
          onTranscript: async (model, lens, messages) => {
            transcripts.push({ model, lens, messages });
          },
        },
      }),
    );
    const published = JSON.stringify(result.reports);
    expect(published).not.toContain("PLANTED");
    expect(JSON.stringify(transcripts)).not.toContain("PLANTED");
    expect(transcripts.map((entry) => entry.messages.map((message) => message.role))).toEqual([
      ["system", "user", "user", "assistant"],
      ["system", "user", "user", "assistant"],
    ]);
    expect(transcripts[0]?.messages[3]?.content).toContain("I found the key [redacted]");
    expect(result.reports[0]?.findings[0]?.title).toBe("Key [redacted] is hard-coded");
  });
});
