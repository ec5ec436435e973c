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
  MODELS,
  type RunningApp,
  type Stack,
  startApp,
  startStack,
  WEBHOOK_SECRET,
  waitFor,
} from "./harness.js";
import { readAppStore } from "./read-app-store.js";
import { type ReviewRouter, routeReviews } from "./route-reviews.js";

/*
 * The quiet period at process level: `review.debounceSeconds: 5`, the real app, the fake GitHub
 * and the fake models. Five pushes within a second are one round at the last head; a
 * `@gadfly review` during the quiet period starts the round at once; a SIGKILL during the quiet
 * period loses nothing.
 */

const REPO = { owner: "octo-org", repo: "settle" };
const DEBOUNCE_MS = 5_000;

describe("push debounce: a burst of pushes is one round", { timeout: 60_000 }, () => {
  let stack: Stack;
  let app: RunningApp;
  let router: ReviewRouter;

  const own = (pr: PullRequestSnapshot, marker: string) =>
    stack.github
      .comments(pr)
      .filter((comment) => comment.user.login === "gadfly[bot]" && comment.body.startsWith(marker));
  const completed = (sha: string) =>
    stack.github.checkRuns(sha).filter((check) => check.status === "completed");
  /** Rounds workers of this process took (`gadfly_rounds_total{state="started"}`). */
  const roundsStarted = async () => {
    const text = await (await fetch(`${app.url}/metrics`)).text();
    return Number(/^gadfly_rounds_total\{state="started"\} (\d+)$/m.exec(text)?.[1] ?? Number.NaN);
  };
  /** The board says the push was noticed and its round waits, within 2 s. */
  const boardSaysWaiting = (pr: PullRequestSnapshot) =>
    waitFor(
      () => (own(pr, MARKERS.statusBoard)[0]?.body ?? "").includes("Waiting for pushes to settle"),
      2_000,
    );
  /** Posts and edits of the PR's status board so far. */
  const boardWrites = (pr: PullRequestSnapshot) =>
    stack.github
      .requests()
      .filter(
        (request) =>
          (request.method === "POST" || request.method === "PATCH") &&
          request.path.startsWith(`/repos/${REPO.owner}/${REPO.repo}/issues/`) &&
          String((request.body as { body?: unknown } | null)?.body ?? "").startsWith(
            MARKERS.statusBoard,
          ) &&
          (request.method === "PATCH" || request.path.endsWith(`/${pr.number}/comments`)),
      ).length;
  const oneCallPerModel = new Map(MODELS.map((model) => [model.id, 1]));

  beforeAll(async () => {
    stack = await startStack({
      review: `  concurrency: 8\n  maxTurns: 6\n  timeoutSeconds: 60\n  debounceSeconds: ${DEBOUNCE_MS / 1000}`,
    });
    router = routeReviews(stack, { "[burst]": {}, "[asked]": {}, "[restart]": {}, "[stream]": {} });
    stack.github.addRepo({
      owner: REPO.owner,
      name: REPO.repo,
      ownerType: "Organization",
      files: { ".github/gadfly.yml": "lenses: [security]\n" },
    });
    app = await startApp(stack);
    await waitFor(() => stack.github.requests({ method: "GET", path: "/app" }).length > 0);
  }, 60_000);

  afterAll(async () => {
    await app?.stop();
    await stack?.close();
  });

  it("reviews five pushes within a second once, at the last head, after saying it waits", async () => {
    const { github } = stack;
    const startedBefore = await roundsStarted();
    let pr = github.addPullRequest({
      ...REPO,
      title: "Five quick pushes [burst]",
      files: [
        { path: "src/step.js", base: "export const step = 0;\n", head: "export const step = 1;\n" },
      ],
    });
    const heads = [pr.headSha];
    await deliver(app.webhookUrl, pullRequestEvent("opened", pr), WEBHOOK_SECRET);
    // Answered once the round is recorded and queued: its quiet period runs from about now.
    const firstPushAt = Date.now();
    // Noticed at once: the board says it waits, and no check or model call exists yet.
    await boardSaysWaiting(pr);
    expect(github.checkRuns(pr.headSha)).toEqual([]);
    expect(router.total("[burst]")).toBe(0);

    // Pushed as a developer does, 200 ms apart, each delivery sent as its push lands.
    let lastPushAt = firstPushAt;
    const deliveries: ReturnType<typeof deliver>[] = [];
    for (let step = 2; step <= 5; step++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const before = pr.headSha;
      pr = github.pushCommit(pr, [
        { path: "src/step.js", content: `export const step = ${step};\n` },
      ]);
      heads.push(pr.headSha);
      lastPushAt = Date.now();
      deliveries.push(
        deliver(app.webhookUrl, pullRequestEvent("synchronize", pr, { before }), WEBHOOK_SECRET),
      );
    }
    expect(lastPushAt - firstPushAt).toBeLessThan(DEBOUNCE_MS);
    for (const response of await Promise.all(deliveries)) expect(response.status).toBeLessThan(300);
    const last = pr.headSha;
    // One write for the whole burst: each later push takes over the waiting board as it is
    // (a push is anyone's to make, so it must not cost a GitHub write each).
    expect(own(pr, MARKERS.statusBoard)[0]?.body).toContain("Waiting for pushes to settle");
    expect(boardWrites(pr)).toBe(1);

    await waitFor(() => github.checkRuns(last).length > 0, DEBOUNCE_MS + 10_000);
    // The round began once the quiet period had passed since the last push, not the first.
    expect(Date.now()).toBeGreaterThanOrEqual(lastPushAt + DEBOUNCE_MS);
    await waitFor(() => completed(last).length === 1, 30_000);
    await waitFor(() => own(pr, MARKERS.consensus).length === 1, 10_000);
    // Let any straggler of the earlier heads show itself before counting.
    await new Promise((resolve) => setTimeout(resolve, 500));

    // One check run, on the last head; none on the four heads the burst went past.
    expect(github.checkRuns(last)).toHaveLength(1);
    for (const head of heads.slice(0, -1)) expect(github.checkRuns(head)).toEqual([]);
    // Each model reviewed once (one lens, no findings: one call each), for one round only.
    expect(router.perModel("[burst]")).toEqual(oneCallPerModel);
    expect((await roundsStarted()) - startedBefore).toBe(1);
    // One board, edited in place from "waiting" to the review's end.
    expect(own(pr, MARKERS.statusBoard)).toHaveLength(1);
    expect(own(pr, MARKERS.statusBoard)[0]?.body).toContain("Every changed file was reviewed.");
    const running = appLogs(app.output()).filter(
      (line) =>
        line.msg === "running round" &&
        line.repo === `${REPO.owner}/${REPO.repo}` &&
        line.pr === pr.number,
    );
    expect(running).toHaveLength(1);
    expect(github.validationErrors).toEqual([]);
  });

  it("still reviews a PR pushed to more often than the quiet period, within five quiet periods", async () => {
    const { github } = stack;
    let pr = github.addPullRequest({
      ...REPO,
      title: "Never quiet [stream]",
      files: [{ path: "src/stream.js", base: "a\n", head: "b\n" }],
    });
    const heads = [pr.headSha];
    const firstPushAt = Date.now();
    await deliver(app.webhookUrl, pullRequestEvent("opened", pr), WEBHOOK_SECRET);
    const checked = () => heads.some((head) => github.checkRuns(head).length > 0);
    // A push every 2 s, under the 5 s quiet period, until a round starts or two pushes past the
    // bound. (How soon a due round is taken is this machine's speed: on a loaded one a push may
    // come first and supersede it, as the newest head always does.)
    for (let step = 1; !checked() && Date.now() - firstPushAt < 5 * DEBOUNCE_MS + 4_000; step++) {
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      if (checked()) break;
      const before = pr.headSha;
      pr = github.pushCommit(pr, [{ path: "src/stream.js", content: `step ${step}\n` }]);
      heads.push(pr.headSha);
      const response = await deliver(
        app.webhookUrl,
        pullRequestEvent("synchronize", pr, { before }),
        WEBHOOK_SECRET,
      );
      expect(response.status).toBeLessThan(300);
    }
    // The pushes stopped: a round starts without another quiet period, the bound long past.
    await waitFor(checked, 15_000);
    expect(heads.length).toBeGreaterThan(5);
    // The cap is the app's own arithmetic, read from its store, not from how fast this machine
    // took the round: each push's round of the chain (until one was claimed) was due within five
    // quiet periods of the chain's first push. Superseded rounds keep when they were due; without
    // the bound the last ones are due a whole quiet period after their push, seconds later.
    const rounds = readAppStore<{
      created_at: number;
      not_before: number | null;
      claimed_at: number | null;
    }>(
      stack.dataDir,
      `SELECT created_at, not_before, claimed_at FROM rounds
         WHERE owner = ? AND repo = ? AND pull_number = ? ORDER BY created_at, round_number`,
      REPO.owner,
      REPO.repo,
      pr.number,
    );
    const firstClaimed = rounds.findIndex((round) => round.claimed_at !== null);
    const chain = rounds.slice(0, firstClaimed === -1 ? rounds.length : firstClaimed + 1);
    expect(chain.length).toBeGreaterThan(5);
    const chainStart = Number(chain[0]?.created_at);
    const due = chain.flatMap((round) =>
      round.not_before === null ? [] : [Number(round.not_before)],
    );
    expect(due.length).toBeGreaterThan(4);
    // (The store stamps the due time with its own clock, a moment after the push was paced.)
    expect(Math.max(...due)).toBeLessThanOrEqual(chainStart + 5 * DEBOUNCE_MS + 1_000);
    await waitFor(() => completed(pr.headSha).length === 1, 30_000);
  }, 90_000);

  it("starts the round at once when @gadfly review comes during the quiet period", async () => {
    const { github } = stack;
    github.addCollaborator("maintainer", "write", REPO);
    const pr = github.addPullRequest({
      ...REPO,
      title: "Asked for a review [asked]",
      files: [{ path: "src/asked.js", base: "a\n", head: "b\n" }],
    });
    const pushedAt = Date.now();
    await deliver(app.webhookUrl, pullRequestEvent("opened", pr), WEBHOOK_SECRET);
    await boardSaysWaiting(pr);
    const comment = github.addComment(pr, { body: "@gadfly review", user: "maintainer" });
    await deliver(
      app.webhookUrl,
      issueCommentEvent({ pullRequest: pr, comment, association: "MEMBER" }),
      WEBHOOK_SECRET,
    );
    await waitFor(() => github.checkRuns(pr.headSha).length === 1, DEBOUNCE_MS);
    // Taken before the push's quiet period ended: the comment did not wait.
    expect(Date.now()).toBeLessThan(pushedAt + DEBOUNCE_MS);
    await waitFor(() => completed(pr.headSha).length === 1, 30_000);
    // The comment joined the push's round: one round, one check, each model once.
    await new Promise((resolve) => setTimeout(resolve, DEBOUNCE_MS));
    expect(github.checkRuns(pr.headSha)).toHaveLength(1);
    expect(router.perModel("[asked]")).toEqual(oneCallPerModel);
  });

  it("runs the round after a SIGKILL during the quiet period, once, not before it ends", async () => {
    const { github } = stack;
    const pr = github.addPullRequest({
      ...REPO,
      title: "Pushed, then the app died [restart]",
      files: [{ path: "src/restart.js", base: "a\n", head: "b\n" }],
    });
    const pushedAt = Date.now();
    await deliver(app.webhookUrl, pullRequestEvent("opened", pr), WEBHOOK_SECRET);
    await boardSaysWaiting(pr);
    expect(await app.stop("SIGKILL")).toBeNull();
    app = await startApp(stack);

    await waitFor(() => github.checkRuns(pr.headSha).length > 0, DEBOUNCE_MS + 20_000);
    expect(Date.now()).toBeGreaterThanOrEqual(pushedAt + DEBOUNCE_MS);
    await waitFor(() => completed(pr.headSha).length === 1, 30_000);
    expect(github.checkRuns(pr.headSha)).toHaveLength(1);
    expect(router.perModel("[restart]")).toEqual(oneCallPerModel);
    // The board the receiver posted before the kill is the one the round finished in.
    expect(own(pr, MARKERS.statusBoard)).toHaveLength(1);
    expect(own(pr, MARKERS.statusBoard)[0]?.body).toContain("Every changed file was reviewed.");
  });
});
