import { writeFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MARKERS } from "../../src/render/markers.js";
import { deliver, type PullRequestSnapshot, pullRequestEvent } from "../fakes/fake-github/index.js";
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

const ROUND_CAP = "round cap of 1,000 tokens";
const DAILY_CAP = "daily cap of 1,000 tokens";

/** The app config of both describes: two Ollama models, two lenses, and `extra` lines. */
async function writeConfig(stack: Stack, extra: readonly string[]): Promise<void> {
  await writeFile(
    stack.configPath,
    [
      "providers:",
      "  - name: ollama-cloud",
      "    type: ollama",
      `    host: ${stack.ollama.url}`,
      "models:",
      '  - { id: "glm-5.2:cloud", provider: ollama-cloud }',
      '  - { id: "kimi-k2.6:cloud", provider: ollama-cloud }',
      "review:",
      "  lenses: [security, correctness]",
      "  maxTurns: 6",
      "  timeoutSeconds: 60",
      "  debounceSeconds: 0",
      ...extra,
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
}

/**
 * Budgets against the running app: one reviewer slot, so lenses start one after another; a
 * round cap of 1,000 tokens lets the first lens run (nothing spent yet) and keeps every other
 * from starting — never sent to a model — while the round still publishes its consensus, its
 * inline review and its check, each saying the review is partial and why. The next pull
 * request of the installation finds the day's cap (1,000 tokens) already spent by the first,
 * through the store, and starts no lens at all.
 */
describe("budgets", { timeout: 120_000 }, () => {
  let stack: Stack;
  let app: RunningApp;
  let router: ReturnType<typeof routeReviews>;

  beforeAll(async () => {
    stack = await startStack();
    router = routeReviews(stack, {
      "[capped]": { findings: (_model, lens) => (lens === "security" ? [injection] : []) },
      "[daily]": { findings: () => [] },
    });
    await writeConfig(stack, [
      "  concurrency: 1",
      "budget:",
      "  roundTokens: 1000",
      "  dailyTokens: 1000",
    ]);
    app = await startApp(stack);
  }, 60_000);

  afterAll(async () => {
    await app?.stop();
    await stack?.close();
  });

  const own = (pr: PullRequestSnapshot, marker: string) =>
    stack.github
      .comments(pr)
      .filter((comment) => comment.user.login === "gadfly[bot]" && comment.body.startsWith(marker));

  async function reviewed(title: string): Promise<PullRequestSnapshot> {
    const pr = stack.github.addPullRequest({
      ...REPO,
      title,
      files: [{ path: "src/db.js", base: `${base.join("\n")}\n`, head: `${head.join("\n")}\n` }],
    });
    await deliver(app.webhookUrl, pullRequestEvent("opened", pr), WEBHOOK_SECRET);
    await waitFor(
      () => stack.github.checkRuns(pr.headSha).some((check) => check.status === "completed"),
      60_000,
    );
    await waitFor(() => own(pr, MARKERS.consensus).length === 1);
    return pr;
  }

  it("a round cap: the lenses not started are skipped, never sent, and the round publishes saying so", async () => {
    const pr = await reviewed("Look users up by name [capped]");

    // Only the first lens reached a model; the other three were never sent.
    expect([...router.calls("[capped]").keys()]).toEqual(["glm-5.2:cloud/security"]);
    expect(stack.ollama.requests.every((request) => request.model === "glm-5.2:cloud")).toBe(true);

    const skip = `skipped: budget reached — ${ROUND_CAP}`;
    const board = own(pr, MARKERS.statusBoard)[0]?.body ?? "";
    expect(board).toContain(
      `⏭️ **Partial: budget reached** — ${ROUND_CAP}: lenses not yet started were skipped and the cross-examination was not run`,
    );
    expect(board).toContain(
      "#### `glm-5.2:cloud` · ollama-cloud — ⏭️ partial (1/2 done, 1 skipped)",
    );
    expect(board).toContain(`- ⏭️ **correctness** — ${skip}`);
    expect(board).toContain("#### `kimi-k2.6:cloud` · ollama-cloud — ⏭️ skipped");
    expect(board.match(new RegExp(skip, "g"))).toHaveLength(3);

    const check = stack.github.checkRuns(pr.headSha)[0];
    expect(check?.conclusion).toBe("neutral");
    expect(check?.output?.title).toBe(
      `Significant issues (partial: budget reached — ${ROUND_CAP}; 3 of 4 lens reviews skipped)`,
    );

    // The rest of the round as usual: the consensus with the finding, the inline review.
    const consensus = own(pr, MARKERS.consensus)[0]?.body ?? "";
    expect(consensus).toContain(`⏭️ **Partial: budget reached** — ${ROUND_CAP}`);
    expect(consensus).toContain("SQL injection");
    const reviews = stack.github.reviews(pr);
    expect(reviews).toHaveLength(1);
    expect(reviews[0]?.comments.length).toBe(1);
  });

  it("a daily cap: the installation's spend today, read from the store, keeps the next round from starting any lens", async () => {
    const before = stack.ollama.requests.length;
    const pr = await reviewed("Look users up by name, again [daily]");

    expect(router.total("[daily]")).toBe(0);
    expect(stack.ollama.requests.length).toBe(before);
    const board = own(pr, MARKERS.statusBoard)[0]?.body ?? "";
    expect(board).toContain(`⏭️ **Partial: budget reached** — ${DAILY_CAP}`);
    expect(board.match(new RegExp(`skipped: budget reached — ${DAILY_CAP}`, "g"))).toHaveLength(4);
    expect(stack.github.checkRuns(pr.headSha)[0]?.output?.title).toBe(
      `No model completed the review (partial: budget reached — ${DAILY_CAP})`,
    );
    expect(own(pr, MARKERS.consensus)[0]?.body ?? "").toContain(
      `⏭️ **Partial: budget reached** — ${DAILY_CAP}`,
    );
  });
});

/**
 * A downshift against the running app: a 60-line change is above `aboveChangedLines: 50`, so
 * the round runs only security on kimi — the other model and lens are never sent — and the
 * board, the consensus and the check say so.
 */
describe("budget.downshift", { timeout: 120_000 }, () => {
  let stack: Stack;
  let app: RunningApp;
  let router: ReturnType<typeof routeReviews>;

  beforeAll(async () => {
    stack = await startStack();
    router = routeReviews(stack, {
      "[large]": { findings: (_model, lens) => (lens === "security" ? [injection] : []) },
    });
    await writeConfig(stack, [
      "budget:",
      '  downshift: { aboveChangedLines: 50, lenses: [security], models: ["kimi-k2.6:cloud"] }',
    ]);
    app = await startApp(stack);
  }, 60_000);

  afterAll(async () => {
    await app?.stop();
    await stack?.close();
  });

  it("runs only the downshift's lenses and models above the size, and says so", async () => {
    const added = Array.from(
      { length: 59 },
      (_, index) => `export const extra${index} = ${index};`,
    );
    const pr = stack.github.addPullRequest({
      ...REPO,
      title: "Look users up by name, and much more [large]",
      files: [
        {
          path: "src/db.js",
          base: `${base.join("\n")}\n`,
          head: `${[...head, ...added].join("\n")}\n`,
        },
      ],
    });
    await deliver(app.webhookUrl, pullRequestEvent("opened", pr), WEBHOOK_SECRET);
    await waitFor(
      () => stack.github.checkRuns(pr.headSha).some((check) => check.status === "completed"),
      60_000,
    );
    const own = (marker: string) =>
      stack.github
        .comments(pr)
        .filter(
          (comment) => comment.user.login === "gadfly[bot]" && comment.body.startsWith(marker),
        );
    await waitFor(() => own(MARKERS.consensus).length === 1);

    expect([...router.calls("[large]").keys()]).toEqual(["kimi-k2.6:cloud/security"]);
    const note = "large change (61 lines): security on kimi-k2.6:cloud only";
    const line = `📉 Downshifted for a ${note} — \`budget.downshift\`.`;
    const board = own(MARKERS.statusBoard)[0]?.body ?? "";
    expect(board).toContain(line);
    expect(board).not.toContain("glm-5.2:cloud");
    const consensus = own(MARKERS.consensus)[0]?.body ?? "";
    expect(consensus).toContain(line);
    expect(consensus).toContain("consensus across 1 model");
    expect(stack.github.checkRuns(pr.headSha)[0]?.output?.title).toBe(
      `Significant issues (partial: ${note})`,
    );
  });
});
