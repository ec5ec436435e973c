import { describe, expect, it } from "vitest";
import { loadLenses } from "../../src/agent/load-lenses.js";
import type { ReviewPlan } from "../../src/config/resolve-review-plan.js";
import { type ModelConfig, type ProviderConfig, ReviewConfig } from "../../src/config/schema.js";
import { buildConsensus } from "../../src/consensus/build-consensus.js";
import { renderLensAnswer } from "../../src/findings/findings-block.js";
import { ModelError, ModelTimeoutError } from "../../src/llm/errors.js";
import type { ChatModel, ChatResult } from "../../src/llm/language-model.js";
import { renderStatusBoard } from "../../src/render/index.js";
import type { ChangeSet } from "../../src/run/change-set.js";
import type { RoundRuntime, RoundSubject } from "../../src/run/index.js";
import { reviewRound } from "../../src/run/review-round.js";
import { createReviewerLimiter } from "../../src/run/reviewer-limiter.js";
import type { RoundStatus } from "../../src/run/round-status.js";
import { FIXTURE_REPO } from "../agent/helpers/temporary-workspace.js";

const providers: ProviderConfig[] = [
  { name: "cloud-a", type: "ollama", host: "http://127.0.0.1:9" },
  { name: "cloud-b", type: "ollama", host: "http://127.0.0.1:9" },
];
const lensIds = ["security", "correctness"];

const finding = {
  file: "src/db.js",
  line: 3,
  end_line: 3,
  severity: "high" as const,
  confidence: "high" as const,
  title: "SQL built by string concatenation",
  body: "The query concatenates user input.",
};

function answer(findings: object[] = []): ChatResult {
  return {
    text: renderLensAnswer(
      findings.length > 0 ? "Significant issues" : "No material issues found",
      findings as never,
    ),
    toolCalls: [],
    finishReason: "stop",
    usage: { inputTokens: 1, outputTokens: 1 },
  };
}

type Behaviour = (call: number) => ChatResult | Promise<ChatResult>;

/** Models whose answers `behaviours` script by model id; counts the calls each got. */
function scripted(behaviours: Record<string, Behaviour>) {
  const calls = new Map<string, number>();
  const create = (model: ModelConfig): ChatModel => ({
    kind: "chat",
    provider: model.provider,
    modelId: model.id,
    async chat() {
      const call = (calls.get(model.id) ?? 0) + 1;
      calls.set(model.id, call);
      const behaviour = behaviours[model.id];
      if (behaviour === undefined) throw new Error(`no behaviour for ${model.id}`);
      return behaviour(call);
    },
  });
  return { calls, create };
}

const unavailable: Behaviour = () => {
  throw new ModelError("cloud-a: HTTP 503: service unavailable", {
    statusCode: 503,
    isRetryable: true,
  });
};

function plan(models: ModelConfig[], fallbackModels: ModelConfig[] = []): ReviewPlan {
  return {
    models,
    fallbackModels,
    lenses: lensIds,
    customLenses: [],
    ignore: [],
    publish: { inline: "agreed", minSeverity: "nit", maxInline: 30 },
    instructions: [],
    review: ReviewConfig.parse({ lenses: lensIds, verify: false, maxTurns: 4, timeoutSeconds: 60 }),
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

async function run(
  plan: ReviewPlan,
  createModel: RoundRuntime["createModel"],
  skip?: RoundSubject["skip"],
) {
  const statuses: RoundStatus[] = [];
  const errors: string[] = [];
  const result = await reviewRound({
    subject: { plan, providers, lenses: await loadLenses(), round: 1, skip },
    change,
    runtime: {
      env: {},
      signal: new AbortController().signal,
      limiter: createReviewerLimiter(8),
      createModel,
    },
    journal: {
      onStatus: (status) => statuses.push(structuredClone(status)),
      onLensError: (model, lens) => errors.push(`${model}/${lens}`),
    },
  });
  return { ...result, statuses, errors };
}

const glm: ModelConfig = { id: "glm", provider: "cloud-a", fallbacks: ["kimi"] };
const kimi: ModelConfig = { id: "kimi", provider: "cloud-b" };
const gpt: ModelConfig = { id: "gpt", provider: "cloud-b" };

describe("a lens going on along its model's failover chain", () => {
  it("finishes on the fallback when the model fails with 503, and the board shows the hop", async () => {
    const { calls, create } = scripted({ glm: unavailable, kimi: () => answer([finding]) });
    const { reports, statuses, status } = await run(plan([glm], [kimi]), create);
    expect(
      reports.map((report) => [report.model, report.lens, report.outcome, report.answeredBy]),
    ).toEqual([
      ["glm", "security", "done", "kimi"],
      ["glm", "correctness", "done", "kimi"],
    ]);
    expect(reports[0]?.failovers).toEqual([{ from: "glm", to: "kimi", reason: "503" }]);
    expect(reports[0]?.findings).toHaveLength(1);
    expect(calls.get("kimi")).toBe(2);
    // Never shown as failed on the way: the hop, then the fallback's progress.
    const states = statuses.map((s) => s.reviewers[0]?.lenses[0]?.state);
    expect(states).not.toContain("failed");
    expect(status.reviewers[0]?.lenses[0]).toMatchObject({
      state: "done",
      failovers: [{ from: "glm", to: "kimi", reason: "503" }],
    });
    const board = renderStatusBoard(status);
    expect(board).toContain("glm → kimi: 503");
  });

  it("counts the model that answered, once per cluster, and not the model that failed", async () => {
    // glm fails over to kimi, which also reviews on its own and finds the same problem.
    const { create } = scripted({
      glm: unavailable,
      kimi: () => answer([finding]),
      gpt: () => answer([]),
    });
    const models = [glm, kimi, gpt];
    const { reports } = await run(plan(models), create);
    const consensus = buildConsensus({
      reports,
      modelOrder: models.map((model) => model.id),
      lensOrder: lensIds,
      providers: { glm: "cloud-a", kimi: "cloud-b", gpt: "cloud-b" },
    });
    expect(consensus.modelCount).toBe(2);
    for (const cluster of consensus.clusters) expect(cluster.models).toEqual(["kimi"]);
  });

  it("goes on after an empty completion twice, but not after the lens's own timeout or a bad answer", async () => {
    const empty: ChatResult = { ...answer(), text: "" };
    const { create } = scripted({
      glm: () => empty,
      kimi: () => answer(),
      gpt: () => {
        throw new ModelTimeoutError("timed out after 60 s");
      },
      qwen: () => ({ ...answer(), text: "I think it is fine." }),
    });
    const gptChain: ModelConfig = { ...gpt, fallbacks: ["kimi"] };
    const qwen: ModelConfig = { id: "qwen", provider: "cloud-a", fallbacks: ["kimi"] };
    const { reports } = await run(plan([glm, gptChain, qwen], [kimi]), create);
    const byModel = (id: string) =>
      reports.find((report) => report.model === id && report.lens === "security");
    expect(byModel("glm")).toMatchObject({
      outcome: "done",
      answeredBy: "kimi",
      failovers: [{ from: "glm", to: "kimi", reason: "empty completion twice" }],
    });
    expect(byModel("gpt")).toMatchObject({ outcome: "failed", failure: "timed out after 60 s" });
    expect(byModel("gpt")?.failovers).toBeUndefined();
    expect(byModel("qwen")?.outcome).toBe("failed");
    expect(byModel("qwen")?.failovers).toBeUndefined();
  });

  it("fails with the last model's reason, every hop kept, when the whole chain fails", async () => {
    const { create } = scripted({
      glm: unavailable,
      kimi: () => {
        throw new ModelError("cloud-b: HTTP 401: invalid key", { statusCode: 401 });
      },
    });
    const { reports, status, errors } = await run(plan([glm], [kimi]), create);
    expect(reports[0]).toMatchObject({
      outcome: "failed",
      failure: "cloud-b: HTTP 401: invalid key",
      failovers: [{ from: "glm", to: "kimi", reason: "503" }],
    });
    expect(reports[0]?.answeredBy).toBeUndefined();
    expect(status.reviewers[0]?.lenses[0]).toMatchObject({ state: "failed" });
    expect(renderStatusBoard(status)).toContain("cloud-b: HTTP 401: invalid key · glm → kimi: 503");
    // Both failures reach the log, each under the model that failed.
    expect(errors.sort()).toEqual([
      "glm/correctness",
      "glm/security",
      "kimi/correctness",
      "kimi/security",
    ]);
  });

  it("never hops to a fallback the round keeps from this change (an agent CLI on a fork)", async () => {
    const { calls, create } = scripted({ glm: unavailable, kimi: () => answer() });
    const { reports } = await run(
      plan([glm], [kimi]),
      create,
      new Map([["kimi", "agent CLIs do not review fork PRs here"]]),
    );
    expect(reports[0]).toMatchObject({ outcome: "failed" });
    expect(reports[0]?.failovers).toBeUndefined();
    expect(calls.get("kimi")).toBeUndefined();
  });
});
