import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MARKERS } from "../../src/render/markers.js";
import {
  checkRunRerequestedEvent,
  deliver,
  issueCommentEvent,
  type PullRequestSnapshot,
  pullRequestEvent,
  signWebhook,
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
import { type ReviewRouter, routeReviews, type Scenario } from "./route-reviews.js";

const REPO = { owner: "octo-org", repo: "gate" };
const BOARD = MARKERS.statusBoard;
const CONSENSUS = MARKERS.consensus;

/** Every model answers at once with no findings, except the first draft of `[push-mid]`, which hangs. */
const scenarios: Record<string, Scenario> = {
  "[gate-ignored]": {},
  "[gate-dup]": {},
  "[push-mid]": {
    intercept: (request) =>
      request.messages.some((message) => message.content?.includes("first-draft") === true)
        ? { hang: true as const }
        : undefined,
  },
};

describe("triggers: who and what starts a round, once", { timeout: 30_000 }, () => {
  let stack: Stack;
  let app: RunningApp;
  let router: ReviewRouter;

  const modelCalls = () => stack.openai.requests.length + stack.ollama.requests.length;
  const logsOf = (deliveryId: string) =>
    appLogs(app.output()).filter((line) => line.delivery === deliveryId);
  /** Why a delivery started no round, once the app has logged it. */
  const decision = async (deliveryId: string) => {
    const skipped = () => logsOf(deliveryId).find((line) => line.msg === "no round");
    await waitFor(() => skipped() !== undefined, 5_000);
    return skipped()?.reason;
  };
  const completedChecks = (sha: string) =>
    stack.github.checkRuns(sha).filter((check) => check.status === "completed");
  const ownComments = (pr: PullRequestSnapshot, marker: string) =>
    stack.github
      .comments(pr)
      .filter((comment) => comment.user.login === "gadfly[bot]" && comment.body.startsWith(marker));

  beforeAll(async () => {
    stack = await startStack();
    router = routeReviews(stack, scenarios);
    stack.github.addRepo({
      owner: REPO.owner,
      name: REPO.repo,
      ownerType: "Organization",
      files: { ".github/gadfly.yml": "lenses: [security]\n" },
    });
    app = await startApp(stack);
    // The app asks who it is right after starting (to resume rounds): let that settle.
    await waitFor(() => stack.github.requests({ method: "GET", path: "/app" }).length > 0);
  }, 60_000);

  afterAll(async () => {
    await app?.stop();
    await stack?.close();
  });

  it("turns away unsigned and wrongly signed deliveries with a 4xx, and does nothing", async () => {
    const { github } = stack;
    const pr = github.addPullRequest({
      ...REPO,
      title: "Unsigned [gate-ignored]",
      files: [{ path: "src/unsigned.js", base: "a\n", head: "b\n" }],
    });
    const requestsBefore = github.requests().length;
    const event = pullRequestEvent("opened", pr);
    const { body, headers } = signWebhook(event, WEBHOOK_SECRET);
    const { "x-hub-signature-256": _signature, ...unsigned } = headers;
    const responses = [
      await fetch(app.webhookUrl, { method: "POST", headers: unsigned, body }),
      await deliver(app.webhookUrl, event, "not-the-secret"),
      // A body changed after signing.
      await fetch(app.webhookUrl, {
        method: "POST",
        headers,
        body: body.replace('"opened"', '"reopened"'),
      }),
    ];
    for (const response of responses) {
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
    }
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(github.requests().length).toBe(requestsBefore);
    expect(github.checkRuns(pr.headSha)).toEqual([]);
    expect(modelCalls()).toBe(0);
    expect(logsOf(event.id).filter((line) => line.msg === "round started")).toEqual([]);
  });

  it("ignores our own comment, another bot's, and a quoted `@gadfly review`", async () => {
    const { github } = stack;
    const pr = github.addPullRequest({
      ...REPO,
      title: "Comments [gate-ignored]",
      files: [{ path: "src/comments.js", base: "a\n", head: "b\n" }],
    });
    const cases = [
      {
        user: "gadfly[bot]",
        body: "@gadfly review",
        association: "NONE",
        reason: "our own comment",
      },
      {
        user: "renovate[bot]",
        body: "@gadfly review",
        association: "NONE",
        reason: "comment by a bot",
      },
      {
        user: "maintainer",
        body: "> @gadfly review\n\nDid you mean to ask for another round?",
        association: "MEMBER",
        reason: "no trigger phrase",
      },
    ] as const;
    const comments = [];
    for (const entry of cases) {
      const comment = github.addComment(pr, { body: entry.body, user: entry.user });
      comments.push(comment);
      const event = issueCommentEvent({ pullRequest: pr, comment, association: entry.association });
      const response = await deliver(app.webhookUrl, event, WEBHOOK_SECRET);
      expect(response.status).toBeLessThan(300);
      expect(await decision(event.id)).toBe(entry.reason);
    }
    await new Promise((resolve) => setTimeout(resolve, 400));
    for (const comment of comments) expect(github.reactions(comment.id)).toEqual([]);
    expect(github.checkRuns(pr.headSha)).toEqual([]);
    expect(
      github.comments(pr).filter((comment) => comment.user.login === "gadfly[bot]"),
    ).toHaveLength(1);
    expect(modelCalls()).toBe(0);
  });

  let dupPr: PullRequestSnapshot;

  it("starts one round for a delivery sent twice at once and again after it ended", async () => {
    const { github } = stack;
    dupPr = github.addPullRequest({
      ...REPO,
      title: "Duplicate deliveries [gate-dup]",
      files: [{ path: "src/dup.js", base: "a\n", head: "b\n" }],
    });
    const event = pullRequestEvent("opened", dupPr);
    const concurrent = await Promise.all([
      deliver(app.webhookUrl, event, WEBHOOK_SECRET),
      deliver(app.webhookUrl, event, WEBHOOK_SECRET),
    ]);
    for (const response of concurrent) expect(response.status).toBeLessThan(300);
    await waitFor(() => completedChecks(dupPr.headSha).length === 1, 20_000);
    await waitFor(() => ownComments(dupPr, CONSENSUS).length === 1, 10_000);

    const again = await deliver(app.webhookUrl, event, WEBHOOK_SECRET);
    expect(again.status).toBeLessThan(300);
    await new Promise((resolve) => setTimeout(resolve, 400));

    expect(github.checkRuns(dupPr.headSha)).toHaveLength(1);
    // One round: each model called once through the repo's one lens.
    expect(router.calls("[gate-dup]")).toEqual(
      new Map(MODELS.map((model) => [`${model.id}/security`, 1])),
    );
    const outcomes = logsOf(event.id).filter((line) =>
      ["round started", "no round", "joined the round already running for this head"].includes(
        line.msg,
      ),
    );
    expect(outcomes.filter((line) => line.msg === "round started")).toHaveLength(1);
    expect(outcomes.filter((line) => line.reason === "duplicate delivery")).toHaveLength(2);
    expect(ownComments(dupPr, BOARD)).toHaveLength(1);
    expect(github.validationErrors).toEqual([]);
  });

  it("re-runs the round when our check is re-requested, and ignores another app's check", async () => {
    const { github } = stack;
    const [check] = github.checkRuns(dupPr.headSha);
    if (check === undefined) throw new Error("the previous test left no check run");
    const foreign = checkRunRerequestedEvent(
      dupPr,
      { ...check, id: check.id + 1 },
      {
        id: 999,
        slug: "other-app",
      },
    );
    await deliver(app.webhookUrl, foreign, WEBHOOK_SECRET);
    expect(await decision(foreign.id)).toBe("not our check");

    const ours = checkRunRerequestedEvent(dupPr, check, {
      id: github.app.id,
      slug: github.app.slug,
    });
    await deliver(app.webhookUrl, ours, WEBHOOK_SECRET);
    await waitFor(() => completedChecks(dupPr.headSha).length === 2, 20_000);
    const checks = github.checkRuns(dupPr.headSha);
    expect(checks).toHaveLength(2);
    expect(checks.map((entry) => entry.conclusion)).toEqual(["neutral", "neutral"]);
    expect(router.calls("[gate-dup]")).toEqual(
      new Map(MODELS.map((model) => [`${model.id}/security`, 2])),
    );
    // The same sticky comments, edited.
    await waitFor(() => /Round 2/.test(ownComments(dupPr, BOARD)[0]?.body ?? ""), 10_000);
    expect(ownComments(dupPr, BOARD)).toHaveLength(1);
    expect(ownComments(dupPr, CONSENSUS)).toHaveLength(1);
  });

  it("cancels the running round when a push lands mid-round, aborting its model calls", async () => {
    const { github } = stack;
    const base = "export const mode = 'base';\n";
    const first = github.addPullRequest({
      ...REPO,
      title: "Push mid-round [push-mid]",
      files: [{ path: "src/mode.js", base, head: "export const mode = 'first-draft';\n" }],
    });
    await deliver(app.webhookUrl, pullRequestEvent("opened", first), WEBHOOK_SECRET);
    // Every model's security lens is in flight, hanging.
    await waitFor(() => router.total("[push-mid]") === MODELS.length, 15_000);
    const closedBefore = stack.openai.closedBeforeReply + stack.ollama.closedBeforeReply;

    const second = github.pushCommit(first, [
      { path: "src/mode.js", content: "export const mode = 'second-draft';\n" },
    ]);
    await deliver(
      app.webhookUrl,
      pullRequestEvent("synchronize", second, { before: first.headSha }),
      WEBHOOK_SECRET,
    );
    await waitFor(() => completedChecks(second.headSha).length === 1, 20_000);
    await waitFor(() => completedChecks(first.headSha).length === 1, 10_000);

    const [old] = github.checkRuns(first.headSha);
    expect(old?.conclusion).toBe("cancelled");
    expect(old?.output.title).toContain(second.headSha.slice(0, 7));
    expect(stack.openai.closedBeforeReply + stack.ollama.closedBeforeReply).toBeGreaterThanOrEqual(
      closedBefore + MODELS.length,
    );
    const [fresh] = github.checkRuns(second.headSha);
    expect(fresh?.conclusion).toBe("neutral");

    const boards = ownComments(second, BOARD);
    expect(boards).toHaveLength(1);
    const boardEdits = github
      .requests({ method: "PATCH", path: `/repos/${REPO.owner}/${REPO.repo}/issues/comments/*` })
      .filter((request) => request.path.endsWith(`/${boards[0]?.id}`))
      .map((request) => (request.body as { body: string }).body);
    expect(boardEdits.some((body) => body.includes("Superseded by a newer push"))).toBe(true);
    // The new round's board replaced the superseded one.
    await waitFor(() =>
      (ownComments(second, BOARD)[0]?.body ?? "").includes("4/4 reviewers finished"),
    );
    const finalBoard = ownComments(second, BOARD)[0]?.body ?? "";
    expect(finalBoard).toContain(`Round 2 · head \`${second.headSha.slice(0, 7)}`);
    expect(finalBoard).not.toContain("Superseded");
    const consensus = ownComments(second, CONSENSUS);
    expect(consensus).toHaveLength(1);
    expect(consensus[0]?.body).toContain(second.headSha);
    expect(github.validationErrors).toEqual([]);
  });
});
