import { describe, expect, it } from "vitest";
import type { LensReport } from "../../src/agent/lens-report.js";
import { loadLenses } from "../../src/agent/load-lenses.js";
import type { ReviewPlan } from "../../src/config/resolve-review-plan.js";
import type { ModelConfig, ProviderConfig } from "../../src/config/schema.js";
import { renderLensAnswer } from "../../src/findings/findings-block.js";
import type { ChatModel } from "../../src/llm/language-model.js";
import type { ChangeSet } from "../../src/run/change-set.js";
import type { RoundRequest } from "../../src/run/index.js";
import { reviewRound } from "../../src/run/review-round.js";
import { createReviewerLimiter } from "../../src/run/reviewer-limiter.js";
import type { RoundStatus } from "../../src/run/round-status.js";
import { FIXTURE_REPO } from "../agent/helpers/temporary-workspace.js";
import { FakeClock } from "../helpers/fake-clock.js";
import { type RequestParts, roundRequest } from "./round-request-fixture.js";

const REASON = "agent CLIs do not review fork PRs here";
const providers: ProviderConfig[] = [
  { name: "chat", type: "ollama", host: "http://127.0.0.1:9" },
  {
    name: "cli",
    type: "command",
    command: ["agent"],
    env: [],
    allowForks: false,
    removePaths: [],
    writesWorkspace: false,
  },
];
const models: ModelConfig[] = [
  { id: "chat-model", provider: "chat" },
  { id: "cli-model", provider: "cli" },
];
const lensIds = ["security", "correctness"];

const plan: ReviewPlan = {
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
};

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

/** Records each model built; every one answers clean at once. */
function recordingModels() {
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
          usage: { inputTokens: 1, outputTokens: 1 },
        };
      },
    };
  };
  return { built, createModel };
}

async function options(parts: RequestParts): Promise<RoundRequest<ChangeSet>> {
  const base = {
    subject: { plan, providers, lenses: await loadLenses(), round: 1 },
    change,
    runtime: {
      env: {},
      signal: new AbortController().signal,
      limiter: createReviewerLimiter(8),
      clock: new FakeClock(),
    },
  };
  return roundRequest(base, parts);
}

function lensStates(status: RoundStatus | undefined): string[] {
  return (status?.reviewers ?? []).flatMap((reviewer) =>
    reviewer.lenses.map(
      (lens) =>
        `${reviewer.model}/${lens.lens}:${lens.state}${lens.reason === undefined ? "" : ` (${lens.reason})`}`,
    ),
  );
}

describe("reviewRound with models kept from the change", () => {
  it("skips every lens of a kept model without building it; the others review", async () => {
    const { built, createModel } = recordingModels();
    const saved: LensReport[] = [];
    const statuses: RoundStatus[] = [];
    const result = await reviewRound(
      await options({
        subject: { skip: new Map([["cli-model", REASON]]) },
        runtime: { createModel },
        journal: {
          onStatus: (status) => statuses.push(status),
          lenses: {
            onEnded: async (report) => {
              saved.push(report);
            },
          },
        },
      }),
    );

    expect(built.sort()).toEqual(["chat-model/correctness", "chat-model/security"]);
    expect(
      result.reports.map((report) => `${report.model}/${report.lens}:${report.outcome}`),
    ).toEqual([
      "chat-model/security:done",
      "chat-model/correctness:done",
      "cli-model/security:skipped",
      "cli-model/correctness:skipped",
    ]);
    const skippedReports = result.reports.filter((report) => report.outcome === "skipped");
    for (const report of skippedReports) {
      expect(report).toMatchObject({
        provider: "cli",
        verdict: null,
        findings: [],
        failure: REASON,
        turns: 0,
        usage: { inputTokens: 0, outputTokens: 0 },
      });
    }
    // Saved like any ended lens, so a resumed round does not start them.
    expect(saved.filter((report) => report.outcome === "skipped")).toEqual(skippedReports);
    expect(lensStates(result.status)).toEqual([
      "chat-model/security:done",
      "chat-model/correctness:done",
      `cli-model/security:skipped (${REASON})`,
      `cli-model/correctness:skipped (${REASON})`,
    ]);
    // The kept model shows skipped from the first status on: never queued, never running.
    for (const status of statuses) {
      expect(lensStates(status).filter((line) => line.startsWith("cli-model/"))).toEqual([
        `cli-model/security:skipped (${REASON})`,
        `cli-model/correctness:skipped (${REASON})`,
      ]);
    }
  });

  it("reuses a skip saved before a restart: the lens is not started on resume", async () => {
    const { built, createModel } = recordingModels();
    const first = await reviewRound(
      await options({
        subject: { skip: new Map([["cli-model", REASON]]) },
        runtime: { createModel },
      }),
    );
    built.length = 0;
    const resumed = await reviewRound(
      await options({
        runtime: { createModel },
        journal: {
          lenses: { finished: first.reports.filter((report) => report.outcome === "skipped") },
          resumed: true,
        },
      }),
    );
    expect(built.sort()).toEqual(["chat-model/correctness", "chat-model/security"]);
    expect(lensStates(resumed.status)).toContain(`cli-model/security:skipped (${REASON})`);
  });

  it("without a skip list, every model reviews", async () => {
    const { built, createModel } = recordingModels();
    await reviewRound(await options({ runtime: { createModel } }));
    expect(built).toHaveLength(4);
  });
});
