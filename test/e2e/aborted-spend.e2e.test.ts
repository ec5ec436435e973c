import { appendFile } from "node:fs/promises";
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
import { readAppStore } from "./read-app-store.js";
import { type ReviewRouter, routeReviews } from "./route-reviews.js";

const REPO = { owner: "octo-org", repo: "metered" };
const DAILY_CAP = "daily cap of 2,000 tokens";

/**
 * Every token counts: a round aborted mid-call by a newer push (the provider read, and bills,
 * the prompt it was sent) is charged the call's estimate, stored with the lens's report and
 * marked estimated, so push / abort / push cycles spend the day's cap for real and the next
 * round finds it reached.
 */
describe("aborted model calls are spent", { timeout: 120_000 }, () => {
  let stack: Stack;
  let app: RunningApp;
  let router: ReviewRouter;

  const own = (pr: PullRequestSnapshot, marker: string) =>
    stack.github
      .comments(pr)
      .filter((comment) => comment.user.login === "gadfly[bot]" && comment.body.startsWith(marker));

  beforeAll(async () => {
    stack = await startStack({ models: [{ id: "gpt-a", provider: "openai" }] });
    router = routeReviews(stack, {
      // The model never answers: every call is in flight when the next push aborts it.
      "[hangs]": { intercept: () => ({ hang: true as const }) },
      "[owner]": {},
    });
    await appendFile(stack.configPath, "budget:\n  dailyTokens: 2000\n");
    stack.github.addRepo({
      owner: REPO.owner,
      name: REPO.repo,
      ownerType: "Organization",
      files: { ".github/gadfly.yml": "lenses: [security]\n" },
    });
    app = await startApp(stack);
  }, 60_000);

  afterAll(async () => {
    await app?.stop();
    await stack?.close();
  });

  it("charges a call aborted in flight, stores it as estimated, and the next rounds find the cap reached", async () => {
    const pr = stack.github.addPullRequest({
      ...REPO,
      title: "Keeps changing [hangs]",
      files: [{ path: "src/metered.js", base: "a\n", head: "b\n" }],
    });
    await deliver(app.webhookUrl, pullRequestEvent("opened", pr), WEBHOOK_SECRET);
    await waitFor(() => router.total("[hangs]") === 1, 20_000);
    // A push while the call is in flight: the round is superseded and its call aborted.
    const pushed = stack.github.pushCommit(pr, [{ path: "src/metered.js", content: "c\n" }]);
    await deliver(
      app.webhookUrl,
      pullRequestEvent("synchronize", pushed, { before: pr.headSha }),
      WEBHOOK_SECRET,
    );

    // The aborted lens is stored with what its call was charged, marked estimated.
    type Row = { input_tokens: number; report: string };
    const rows = () =>
      readAppStore<Row>(
        stack.dataDir,
        "SELECT input_tokens, report FROM lens_runs WHERE state = 'cancelled'",
      );
    await waitFor(() => rows().length === 1, 10_000);
    const [row] = rows();
    // The prompt the provider read: the lens's instructions and the pull request, ~2,000+ tokens.
    expect(row?.input_tokens).toBeGreaterThanOrEqual(2000);
    const usage = (JSON.parse(row?.report ?? "{}") as { usage: { estimatedInputTokens?: number } })
      .usage;
    expect(usage.estimatedInputTokens).toBe(row?.input_tokens);

    // The push's round finds the day's cap spent: it sends nothing.
    await waitFor(
      () => stack.github.checkRuns(pushed.headSha).some((check) => check.status === "completed"),
      30_000,
    );
    await waitFor(() => own(pushed, MARKERS.statusBoard)[0]?.body.includes(DAILY_CAP) === true);
    expect(router.total("[hangs]")).toBe(1);

    // The owner's round of the day: the cap is spent, no lens starts, and it says why.
    const owner = stack.github.addPullRequest({
      ...REPO,
      title: "Owner's change [owner]",
      files: [{ path: "src/owner.js", base: "a\n", head: "b\n" }],
    });
    await deliver(app.webhookUrl, pullRequestEvent("opened", owner), WEBHOOK_SECRET);
    await waitFor(
      () => stack.github.checkRuns(owner.headSha).some((check) => check.status === "completed"),
      30_000,
    );
    await waitFor(() => own(owner, MARKERS.statusBoard)[0]?.body.includes(DAILY_CAP) === true);
    expect(router.total("[owner]")).toBe(0);
    expect(stack.github.validationErrors).toEqual([]);
  });
});
