import { writeFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MARKERS } from "../../src/render/markers.js";
import { deliver, pullRequestEvent } from "../fakes/fake-github/index.js";
import {
  type RunningApp,
  type Stack,
  startApp,
  startStack,
  WEBHOOK_SECRET,
  waitFor,
} from "./harness.js";
import { routeReviews } from "./route-reviews.js";
import {
  SQL_INJECTION_REPO,
  sqlInjectionBase,
  sqlInjectionFinding,
  sqlInjectionHead,
} from "./sql-injection-pr.js";

const REPO = SQL_INJECTION_REPO;
const base = sqlInjectionBase;
const head = sqlInjectionHead;
const injection = sqlInjectionFinding;

/**
 * A model whose provider is down for the whole round, against the running app: glm-5.2's
 * server answers 503 to every call, so each of its lenses goes on on its fallback, kimi-k2.6;
 * the board shows the hop and its reason, and agreement counts kimi (which answered), once.
 */
describe("failover chains", { timeout: 90_000 }, () => {
  let stack: Stack;
  let app: RunningApp;

  beforeAll(async () => {
    stack = await startStack();
    routeReviews(stack, {
      "[outage]": {
        findings: (model, lens) =>
          lens === "security" && model !== "glm-5.2:cloud" ? [injection] : [],
        intercept: (request) =>
          request.model === "glm-5.2:cloud"
            ? {
                error: 503,
                headers: { "retry-after": "0" },
                body: { error: "service unavailable" },
              }
            : undefined,
      },
    });
    await writeFile(
      stack.configPath,
      [
        "providers:",
        "  - name: ollama-cloud",
        "    type: ollama",
        `    host: ${stack.ollama.url}`,
        "  - name: openai",
        "    type: openai",
        `    baseURL: ${stack.openai.url}/v1`,
        "    apiKeyEnv: E2E_OPENAI_KEY",
        "models:",
        '  - { id: "glm-5.2:cloud", provider: ollama-cloud, fallbacks: ["kimi-k2.6:cloud"] }',
        '  - { id: "kimi-k2.6:cloud", provider: ollama-cloud }',
        '  - { id: "gpt-a", provider: openai }',
        "review:",
        "  lenses: [security, correctness]",
        "  concurrency: 8",
        "  maxTurns: 6",
        "  timeoutSeconds: 60",
        "  debounceSeconds: 0",
        "crossExamination:",
        "  enabled: false",
        // One summary call more per round: off, as the harness has it, for the scripted counts.
        "summary: false",
        "",
      ].join("\n"),
    );
    stack.github.addRepo({
      owner: REPO.owner,
      name: REPO.repo,
      files: { "src/db.js": `${base.join("\n")}\n` },
    });
    app = await startApp(stack);
  }, 60_000);

  afterAll(async () => {
    await app?.stop();
    await stack?.close();
  });

  it("finishes the failing model's lenses on its fallback, shows the hop, and counts who answered", async () => {
    const pr = stack.github.addPullRequest({
      ...REPO,
      title: "Look users up by name [outage]",
      files: [{ path: "src/db.js", base: `${base.join("\n")}\n`, head: `${head.join("\n")}\n` }],
    });
    await deliver(app.webhookUrl, pullRequestEvent("opened", pr), WEBHOOK_SECRET);
    const own = (marker: string) =>
      stack.github
        .comments(pr)
        .filter(
          (comment) => comment.user.login === "gadfly[bot]" && comment.body.startsWith(marker),
        );
    await waitFor(
      () => stack.github.checkRuns(pr.headSha).some((check) => check.status === "completed"),
      60_000,
    );
    await waitFor(() => own(MARKERS.consensus).length === 1);
    const board = own(MARKERS.statusBoard)[0]?.body ?? "";
    const consensus = own(MARKERS.consensus)[0]?.body ?? "";

    // glm's server refused every call (3 attempts per lens); kimi answered glm's lenses too.
    expect(stack.ollama.requests.filter((r) => r.model === "glm-5.2:cloud").length).toBe(6);
    expect(board).toContain("3/3 reviewers finished");
    expect(board).toContain("#### `glm-5.2:cloud` · ollama-cloud — ✅ done");
    expect(board).toContain("glm-5.2:cloud → kimi-k2.6:cloud: 503");
    expect(board.match(/glm-5\.2:cloud → kimi-k2\.6:cloud: 503/g)).toHaveLength(2);
    expect(board).not.toContain("⚠️");

    // Two models answered (kimi twice over, counted once): the finding is 2/2, never 3/3.
    expect(consensus).toContain("consensus across 2 models");
    expect(consensus).toMatch(/\| 2\/2 /);
    expect(consensus).not.toContain("3/3");
    const check = stack.github.checkRuns(pr.headSha)[0];
    expect(check?.conclusion).toBe("neutral");
    expect(check?.output?.title).toBe("Significant issues");
  });
});
