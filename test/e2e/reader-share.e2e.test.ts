import { appendFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderLensAnswer } from "../../src/findings/findings-block.js";
import { MARKERS } from "../../src/render/markers.js";
import {
  deliver,
  issueCommentEvent,
  type PullRequestSnapshot,
  pullRequestEvent,
} from "../fakes/fake-github/index.js";
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

const REPO = { owner: "octo-org", repo: "shared-budget" };
const READER = "mallory";
/** What every call costs by the fake's meter: 3,000 input tokens. */
const CALL_TOKENS = 3_000;
const SHARE_SPENT = "readers' share of today's budget is spent";

/**
 * Readers draw on their own share of the daily caps: with a cap of 10,000 tokens and
 * `readers.dailyShare: 0.5`, readers' rounds spend up to 5,000 (the round that crosses it
 * finishes), the next reader push waits with the reason on its board, and a maintainer's
 * `@gadfly review` of that held PR runs in full against the rest of the cap.
 */
describe("readers' share of the daily caps", { timeout: 120_000 }, () => {
  let stack: Stack;
  let app: RunningApp;
  let router: ReviewRouter;

  const board = (pr: PullRequestSnapshot) =>
    stack.github
      .comments(pr)
      .find(
        (comment) =>
          comment.user.login === "gadfly[bot]" && comment.body.startsWith(MARKERS.statusBoard),
      )?.body ?? "";
  const completed = (sha: string) =>
    stack.github.checkRuns(sha).filter((check) => check.status === "completed");
  const send = async (event: Parameters<typeof deliver>[1]) => {
    const response = await deliver(app.webhookUrl, event, WEBHOOK_SECRET);
    expect(response.status).toBeLessThan(300);
  };
  const readerPr = (tag: string, path: string) =>
    stack.github.addPullRequest({
      ...REPO,
      title: `A change ${tag}`,
      user: READER,
      headRepository: { owner: READER, name: REPO.repo },
      files: [{ path, base: "a\n", head: "b\n" }],
    });
  /** Tokens stored for the installation's rounds, readers' (push rounds with an actor) or all. */
  const storedTokens = (readersOnly: boolean) =>
    readAppStore<{ tokens: number | null }>(
      stack.dataDir,
      `SELECT SUM(l.input_tokens + l.output_tokens) AS tokens
         FROM lens_runs l JOIN rounds r ON r.id = l.round_id
        WHERE ${readersOnly ? "r.trigger_kind = 'push' AND r.trigger_actor IS NOT NULL" : "1 = 1"}`,
    )[0]?.tokens ?? 0;

  beforeAll(async () => {
    stack = await startStack({ models: [{ id: "gpt-a", provider: "openai" }] });
    const metered = {
      intercept: () => ({
        text: renderLensAnswer("No material issues found", [], "Reviewed."),
        usage: { inputTokens: CALL_TOKENS, outputTokens: 0 },
      }),
    };
    router = routeReviews(stack, { "[r1]": metered, "[r2]": metered, "[r3]": metered });
    await appendFile(
      stack.configPath,
      [
        "budget:\n  dailyTokens: 10000",
        "readers:\n  roundsPerPullRequest: 10\n  roundsPerAuthor: 10\n  minIntervalSeconds: 0\n  dailyShare: 0.5\n",
      ].join("\n"),
    );
    stack.github.addRepo({
      owner: REPO.owner,
      name: REPO.repo,
      ownerType: "Organization",
      files: { ".github/gadfly.yml": "lenses: [security]\n" },
    });
    stack.github.addCollaborator("maintainer", "write", REPO);
    app = await startApp(stack);
  }, 60_000);

  afterAll(async () => {
    await app?.stop();
    await stack?.close();
  });

  it("spends readers' rounds up to the share, then holds the next with the reason; a maintainer's review runs in full", async () => {
    // Two reader rounds: 3,000 then 6,000 tokens, the second crossing the 5,000 share.
    for (const [tag, path] of [
      ["[r1]", "src/one.js"],
      ["[r2]", "src/two.js"],
    ] as const) {
      const pr = readerPr(tag, path);
      await send(pullRequestEvent("opened", pr));
      await waitFor(() => completed(pr.headSha).length === 1, 40_000);
      expect(board(pr)).toContain("1/1 reviewers finished");
    }
    expect(storedTokens(true)).toBe(2 * CALL_TOKENS);

    // The third reader PR: the share is spent, so it waits, and its board says why.
    const held = readerPr("[r3]", "src/three.js");
    await send(pullRequestEvent("opened", held));
    await waitFor(() => board(held).includes(SHARE_SPENT), 10_000);
    expect(board(held)).toContain("A maintainer can run `@gadfly review` to start it now.");
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(router.total("[r3]")).toBe(0);
    expect(completed(held.headSha)).toEqual([]);

    // The maintainer's `@gadfly review` joins the held round and makes it theirs: it runs
    // against the whole cap (6,000 of 10,000 spent), every lens, none skipped for the budget.
    const comment = stack.github.addComment(held, { body: "@gadfly review", user: "maintainer" });
    await send(issueCommentEvent({ pullRequest: held, comment, association: "MEMBER" }));
    await waitFor(() => completed(held.headSha).length === 1, 40_000);
    expect(router.total("[r3]")).toBe(1);
    expect(board(held)).toContain("1/1 reviewers finished");
    expect(board(held)).not.toContain("budget reached");
    expect(storedTokens(false)).toBe(3 * CALL_TOKENS);
    // Readers' spend did not grow: the maintainer's round is not theirs.
    expect(storedTokens(true)).toBe(2 * CALL_TOKENS);
    expect(stack.github.validationErrors).toEqual([]);
  });
});
