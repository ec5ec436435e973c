import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadLenses } from "../../src/agent/load-lenses.js";
import type { ReviewPlan } from "../../src/config/resolve-review-plan.js";
import { parseUnifiedDiff } from "../../src/diff/parse-unified-diff.js";
import type { AgentModel, AgentRunRequest } from "../../src/llm/index.js";
import { reviewChange } from "../../src/run/review-change.js";
import { createReviewerLimiter } from "../../src/run/reviewer-limiter.js";
import type { SharedScrubbedCopies } from "../../src/sandbox/index.js";
import { FIXTURE_REPO } from "../agent/helpers/temporary-workspace.js";

/*
 * A round's agent runs (every lens, every verify) are handed one SharedScrubbedCopies, which
 * copies the snapshot once; the round deletes it when it ends, also when it is aborted.
 */

const LENSES = ["security", "correctness", "maintainability", "performance", "error-handling"];
const diff = [
  "diff --git a/src/db.js b/src/db.js",
  "--- a/src/db.js",
  "+++ b/src/db.js",
  "@@ -6,0 +7,1 @@",
  "+const sql = 'SELECT ' + name;",
  "",
].join("\n");

const plan = {
  models: [{ id: "m", provider: "p" }],
  lenses: LENSES,
  customLenses: [],
  ignore: [],
  publish: { inline: "agreed", minSeverity: "nit", maxInline: 30 },
  instructions: [],
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

async function round(
  onRun: (request: AgentRunRequest) => void,
  controller = new AbortController(),
) {
  const model: AgentModel = {
    kind: "agent",
    provider: "p",
    modelId: "m",
    async run(request) {
      onRun(request);
      // What openAgentSandbox does at `user` and `bwrap`.
      await request.sharedCopies?.acquire({ snapshot: request.cwd, removePaths: [] });
      return {
        text: "Fine.\n\nVERDICT: No material issues found\n```gadfly-findings\n[]\n```",
        transcript: [],
        usage: { inputTokens: 1, outputTokens: 1 },
      };
    },
  };
  return await reviewChange({
    subject: {
      plan,
      providers: [{ name: "p", type: "command", command: ["agent"], env: [] }] as never,
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
        conventionFiles: [],
      },
    },
    runtime: {
      env: {},
      secrets: [],
      signal: controller.signal,
      limiter: createReviewerLimiter(5),
      createModel: () => model,
    },
  });
}

describe("a round's shared copies", () => {
  it("are one object for every agent run of the round, copied once, deleted when it ends", async () => {
    const seen = new Set<SharedScrubbedCopies | undefined>();
    let runs = 0;
    let path: string | undefined;
    await round((request) => {
      runs++;
      seen.add(request.sharedCopies);
      void request.sharedCopies?.acquire({ snapshot: request.cwd, removePaths: [] }).then(
        (copy) => {
          path ??= copy.path;
          expect(copy.path).toBe(path);
        },
        () => undefined,
      );
    });
    expect(runs).toBeGreaterThanOrEqual(LENSES.length);
    expect(seen.size).toBe(1);
    expect([...seen][0]).toBeDefined();
    expect(path).toBeDefined();
    expect(existsSync(path ?? "")).toBe(false);
    await expect(
      [...seen][0]?.acquire({ snapshot: FIXTURE_REPO, removePaths: [] }),
    ).rejects.toThrow(/already deleted/);
  });

  it("are deleted when the round is aborted", async () => {
    const controller = new AbortController();
    let copies: SharedScrubbedCopies | undefined;
    await round((request) => {
      copies ??= request.sharedCopies;
      controller.abort();
    }, controller).catch(() => undefined);
    expect(copies).toBeDefined();
    await expect(copies?.acquire({ snapshot: FIXTURE_REPO, removePaths: [] })).rejects.toThrow(
      /already deleted/,
    );
  });
});
