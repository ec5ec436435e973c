import { appendFile, readFile, writeFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MARKERS } from "../../src/render/markers.js";
import {
  deliver,
  issueCommentEvent,
  type PullRequestSnapshot,
  pullRequestEvent,
} from "../fakes/fake-github/index.js";
import { appLogs } from "./app-logs.js";
import {
  type RunningApp,
  type Stack,
  startApp,
  startStack,
  WEBHOOK_SECRET,
  waitFor,
} from "./harness.js";
import { type ReviewRouter, routeReviews } from "./route-reviews.js";

const REPO = { owner: "octo-org", repo: "public-widgets" };
const READER = "mallory";
const FORK = { owner: READER, name: "public-widgets" };

/**
 * A stranger (no write access, a fork) cannot spend the installation's budgets by pushing:
 * reopen on a reviewed head starts nothing, each PR and each author gets its allowance per
 * day, counted from the store (so a restart forgets nothing), the board says why a round
 * waits, and a maintainer's PR, and a maintainer's `@gadfly review`, are never held.
 */
describe("reader limits: who may spend", { timeout: 120_000 }, () => {
  let stack: Stack;
  let app: RunningApp;
  let router: ReviewRouter;

  const logsOf = (deliveryId: string) =>
    appLogs(app.output()).filter((line) => line.delivery === deliveryId);
  const decision = async (deliveryId: string) => {
    const skipped = () => logsOf(deliveryId).find((line) => line.msg === "no round");
    await waitFor(() => skipped() !== undefined, 5_000);
    return skipped()?.reason;
  };
  const completed = (sha: string) =>
    stack.github.checkRuns(sha).filter((check) => check.status === "completed");
  const board = (pr: PullRequestSnapshot) =>
    stack.github
      .comments(pr)
      .find(
        (comment) =>
          comment.user.login === "gadfly[bot]" && comment.body.startsWith(MARKERS.statusBoard),
      )?.body ?? "";
  const send = async (event: ReturnType<typeof pullRequestEvent>) => {
    const response = await deliver(app.webhookUrl, event, WEBHOOK_SECRET);
    expect(response.status).toBeLessThan(300);
    return event.id;
  };
  const readerPr = (title: string, path: string, user = READER) =>
    stack.github.addPullRequest({
      ...REPO,
      title,
      user,
      headRepository: { ...FORK, owner: user },
      files: [{ path, base: "a\n", head: "b\n" }],
    });
  /** Opens the PR (or pushes) and waits until its head's check completed. */
  const reviewedAt = async (event: ReturnType<typeof pullRequestEvent>, sha: string) => {
    await send(event);
    await waitFor(() => completed(sha).length === 1, 40_000);
  };
  /** Sends the push and waits until the app logged its round as held (queued, not due). */
  const quietAfter = async (tag: string, before: number) => {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(router.total(tag)).toBe(before);
  };

  /** Restarts the app with the reader limits replaced (an operator changing the config). */
  const restartWith = async (readers: string) => {
    await app.stop();
    const config = await readFile(stack.configPath, "utf8");
    await writeFile(
      stack.configPath,
      config.replace(/readers:\n(?: {2}.*\n)*/, `readers:\n${readers}`),
    );
    app = await startApp(stack);
  };

  beforeAll(async () => {
    stack = await startStack({ models: [{ id: "gpt-a", provider: "openai" }] });
    router = routeReviews(stack, {
      "[reader-a]": {},
      "[reader-b]": {},
      "[reader-c]": {},
      "[reader-d]": {},
      "[reader-e]": {},
      "[owner]": {},
    });
    await appendFile(
      stack.configPath,
      "readers:\n  roundsPerPullRequest: 2\n  roundsPerAuthor: 3\n  minIntervalSeconds: 0\n",
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

  let prA: PullRequestSnapshot;

  it("reopening a reviewed head starts nothing; the PR's third round waits, saying so on the board", async () => {
    prA = readerPr("Tidy [reader-a]", "src/a.js");
    await reviewedAt(pullRequestEvent("opened", prA), prA.headSha);
    const once = router.total("[reader-a]");
    expect(once).toBe(1);

    for (let cycle = 0; cycle < 2; cycle += 1) {
      stack.github.updatePullRequest(prA, { state: "closed" });
      await send(pullRequestEvent("closed", stack.github.pullRequest(prA)));
      const reopened = stack.github.updatePullRequest(prA, { state: "open" });
      const id = await send(pullRequestEvent("reopened", reopened));
      expect(await decision(id)).toBe(`${prA.headSha.slice(0, 7)} was already reviewed`);
    }
    await quietAfter("[reader-a]", once);

    // A force-push is a new head: the PR's second round of the day runs.
    const pushed = stack.github.pushCommit(prA, [{ path: "src/a.js", content: "c\n" }], {
      rewrite: true,
    });
    await reviewedAt(pullRequestEvent("synchronize", pushed), pushed.headSha);
    expect(router.total("[reader-a]")).toBe(2);

    // The third waits for tomorrow; the board says why and who can start it.
    prA = stack.github.pushCommit(prA, [{ path: "src/a.js", content: "d\n" }]);
    await send(pullRequestEvent("synchronize", prA));
    await waitFor(() => board(prA).includes("this PR reached its 2 rounds for today"));
    expect(board(prA)).toContain("A maintainer can run `@gadfly review` to start it now.");
    await quietAfter("[reader-a]", 2);
    expect(completed(prA.headSha)).toEqual([]);
    expect(stack.github.validationErrors).toEqual([]);
  });

  it("bounds the author across pull requests: their next PR waits once they spent their rounds", async () => {
    const prB = readerPr("Another [reader-b]", "src/b.js");
    await reviewedAt(pullRequestEvent("opened", prB), prB.headSha);
    // Three rounds of the day spent (two on A, one on B): C waits.
    const prC = readerPr("A third [reader-c]", "src/c.js");
    await send(pullRequestEvent("opened", prC));
    await waitFor(() => board(prC).includes(`${READER} reached their 3 rounds for today`));
    await quietAfter("[reader-c]", 0);
  });

  it("never holds a maintainer's pull request, nor a maintainer's `@gadfly review` of a held one", async () => {
    const owner = stack.github.addPullRequest({
      ...REPO,
      title: "Owner's change [owner]",
      files: [{ path: "src/owner.js", base: "a\n", head: "b\n" }],
    });
    await reviewedAt(pullRequestEvent("opened", owner), owner.headSha);
    expect(board(owner)).toContain("1/1 reviewers finished");

    const comment = stack.github.addComment(prA, { body: "@gadfly review", user: "maintainer" });
    await send(issueCommentEvent({ pullRequest: prA, comment, association: "MEMBER" }));
    await waitFor(() => completed(prA.headSha).length === 1, 40_000);
    expect(router.total("[reader-a]")).toBe(3);
  });

  it("keeps its counts across a restart: they are the store's", async () => {
    await app.stop();
    app = await startApp(stack);
    const pushed = stack.github.pushCommit(prA, [{ path: "src/a.js", content: "e\n" }]);
    await send(pullRequestEvent("synchronize", pushed));
    await waitFor(() => board(pushed).includes("this PR reached its 2 rounds for today"));
    await quietAfter("[reader-a]", 3);
  });

  it("checks a held round again when a worker claims it: of two woken for the author's last slot, one runs and the other waits again", async () => {
    const TRUDY = "trudy";
    const prD = readerPr("Dee [reader-d]", "src/d.js", TRUDY);
    const prE = readerPr("Eee [reader-e]", "src/e.js", TRUDY);
    await reviewedAt(pullRequestEvent("opened", prD), prD.headSha);
    await reviewedAt(pullRequestEvent("opened", prE), prE.headSha);
    // Two rounds spent of four a day; a PR's rounds at least 40 s apart: both next pushes wait.
    await restartWith(
      "  roundsPerPullRequest: 5\n  roundsPerAuthor: 4\n  minIntervalSeconds: 40\n",
    );
    const d2 = stack.github.pushCommit(prD, [{ path: "src/d.js", content: "c\n" }]);
    await send(pullRequestEvent("synchronize", d2));
    const e2 = stack.github.pushCommit(prE, [{ path: "src/e.js", content: "c\n" }]);
    await send(pullRequestEvent("synchronize", e2));
    const apart = "rounds of this PR are at least 40 s apart";
    await waitFor(() => board(d2).includes(apart) && board(e2).includes(apart));
    // While both wait, the operator allows three a day: one slot left, two rounds due for it.
    await restartWith(
      "  roundsPerPullRequest: 5\n  roundsPerAuthor: 3\n  minIntervalSeconds: 40\n",
    );
    const runs = () => completed(d2.headSha).length + completed(e2.headSha).length;
    await waitFor(() => runs() === 1, 80_000);
    const waited = completed(d2.headSha).length === 1 ? e2 : d2;
    const tag = waited === d2 ? "[reader-d]" : "[reader-e]";
    await waitFor(() => board(waited).includes(`${TRUDY} reached their 3 rounds for today`));
    expect(board(waited)).toContain("A maintainer can run `@gadfly review` to start it now.");
    const held = appLogs(app.output()).filter(
      (line) => line.msg === "round held again: a reader limit",
    );
    expect(held.map((line) => line.because)).toEqual([`${TRUDY} reached their 3 rounds for today`]);
    await quietAfter(tag, 1);
    expect(runs()).toBe(1);
    expect(completed(waited.headSha)).toEqual([]);

    // A maintainer's `@gadfly review` joins the held round: it is theirs now, and runs.
    const comment = stack.github.addComment(waited, { body: "@gadfly review", user: "maintainer" });
    await send(issueCommentEvent({ pullRequest: waited, comment, association: "MEMBER" }));
    await waitFor(() => completed(waited.headSha).length === 1, 40_000);
    expect(router.total(tag)).toBe(2);
    expect(stack.github.validationErrors).toEqual([]);
  });
});
