import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LensFinding } from "../../src/findings/schema.js";
import { MARKERS } from "../../src/render/markers.js";
import { deliver, type PullRequestSnapshot, pullRequestEvent } from "../fakes/fake-github/index.js";
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

const BOARD = MARKERS.statusBoard;
const CONSENSUS = MARKERS.consensus;

const leak: LensFinding = {
  file: "src/session.js",
  line: 2,
  endLine: 2,
  severity: "high",
  confidence: "high",
  title: "The session secret is logged in plain text",
  body: "`console.log(secret)` writes the session secret to the logs.",
};

/** Lens states the app saved for the rounds of one PR, read from its SQLite store as it runs. */
function savedLenses(
  dataDir: string,
  pullNumber: number,
): { model: string; lens: string; state: string }[] {
  return readAppStore(
    dataDir,
    `SELECT l.model, l.lens, l.state FROM lens_runs l JOIN rounds r ON r.id = l.round_id
     WHERE r.pull_number = ? ORDER BY l.model, l.lens`,
    pullNumber,
  );
}

describe("restarts: a round survives SIGKILL and SIGTERM", { timeout: 30_000 }, () => {
  let stack: Stack;
  let app: RunningApp;
  let router: ReviewRouter;
  /** While set, the correctness lens hangs (until the app aborts it or dies). */
  let correctnessHangs = true;

  const own = (pr: PullRequestSnapshot, marker: string) =>
    stack.github
      .comments(pr)
      .filter((comment) => comment.user.login === "gadfly[bot]" && comment.body.startsWith(marker));
  const posts = (path: string) => stack.github.requests({ method: "POST", path }).length;
  const securityDone = (pr: PullRequestSnapshot) =>
    savedLenses(stack.dataDir, pr.number).filter(
      (entry) => entry.lens === "security" && entry.state === "done",
    ).length === MODELS.length;

  /** Opens a PR and waits until every security lens is saved and every correctness lens hangs. */
  const openMidRound = async (tag: string, path: string) => {
    correctnessHangs = true;
    const pr = stack.github.addPullRequest({
      owner: "octo-org",
      repo: "durable",
      title: `Sessions ${tag}`,
      files: [
        {
          path,
          base: "export const secret = load();\n",
          head: "export const secret = load();\nconsole.log(secret);\n",
        },
      ],
    });
    await deliver(app.webhookUrl, pullRequestEvent("opened", pr), WEBHOOK_SECRET);
    await waitFor(
      () =>
        securityDone(pr) &&
        [...router.calls(tag)].filter(([key]) => key.endsWith("/correctness")).length ===
          MODELS.length,
      15_000,
    );
    return pr;
  };

  /** The round ended on GitHub: check completed, consensus posted. */
  const ended = async (pr: PullRequestSnapshot) => {
    await waitFor(
      () => stack.github.checkRuns(pr.headSha).some((check) => check.status === "completed"),
      20_000,
    );
    await waitFor(() => own(pr, CONSENSUS).length === 1);
  };

  beforeAll(async () => {
    stack = await startStack();
    const scenario = {
      findings: (_model: string, lens: string) => (lens === "security" ? [leak] : []),
      intercept: (request: { lens: string | undefined }) =>
        request.lens === "correctness" && correctnessHangs ? { hang: true as const } : undefined,
    };
    router = routeReviews(stack, {
      "[crash]": scenario,
      "[term]": scenario,
      "[drain]": scenario,
      "[late]": {},
      "[publish]": {
        // One finding on a changed line (inline), one on an unchanged line (listed in the review body).
        findings: (_model, lens) =>
          lens === "security"
            ? [
                leak,
                {
                  ...leak,
                  line: 12,
                  endLine: 12,
                  severity: "low",
                  title: "`part12` is exported but never imported anywhere",
                  body: "Dead export: nothing imports `part12`.",
                },
              ]
            : [],
      },
    });
    stack.github.addRepo({
      owner: "octo-org",
      name: "durable",
      ownerType: "Organization",
      files: { ".github/gadfly.yml": "lenses: [security, correctness]\n" },
    });
    app = await startApp(stack);
  }, 60_000);

  afterAll(async () => {
    await app?.stop("SIGKILL");
    await stack?.close();
  });

  it("SIGKILL mid-round: the restart finishes the round without calling finished lenses again", async () => {
    const pr = await openMidRound("[crash]", "src/session.js");
    const before = router.calls("[crash]");
    expect(await app.stop("SIGKILL")).toBeNull();

    correctnessHangs = false;
    app = await startApp(stack);
    await ended(pr);

    const after = router.calls("[crash]");
    for (const model of MODELS) {
      // The security lens (answer + verification) was saved: not paid for again.
      expect(after.get(`${model.id}/security`)).toBe(before.get(`${model.id}/security`));
      expect(after.get(`${model.id}/correctness`)).toBe(
        (before.get(`${model.id}/correctness`) ?? 0) + 1,
      );
    }
    const { github } = stack;
    expect(github.checkRuns(pr.headSha)).toHaveLength(1);
    expect(github.checkRuns(pr.headSha)[0]?.conclusion).toBe("neutral");
    expect(own(pr, CONSENSUS)).toHaveLength(1);
    expect(own(pr, CONSENSUS)[0]?.body).toContain("The session secret is logged");
    expect(github.reviews(pr)).toHaveLength(1);
    expect(github.reviews(pr)[0]?.comments.map((comment) => comment.line)).toEqual([2]);
    await waitFor(() => (own(pr, BOARD)[0]?.body ?? "").includes("4/4 reviewers finished"));
    expect(own(pr, BOARD)).toHaveLength(1);
    expect(own(pr, BOARD)[0]?.body).toContain("resumed after a restart");
    expect(github.validationErrors).toEqual([]);
  });

  it("SIGTERM mid-round: exits within 10 s, and the restart resumes and completes the round", async () => {
    const pr = await openMidRound("[term]", "src/term.js");
    const before = router.calls("[term]");
    const closedBefore = stack.openai.closedBeforeReply + stack.ollama.closedBeforeReply;
    const started = Date.now();
    const code = await app.stop("SIGTERM");
    const elapsed = Date.now() - started;
    expect(code).toBe(0);
    expect(elapsed).toBeLessThan(10_000);
    // The hanging correctness calls were aborted, not left to run.
    expect(stack.openai.closedBeforeReply + stack.ollama.closedBeforeReply).toBeGreaterThanOrEqual(
      closedBefore + MODELS.length,
    );

    correctnessHangs = false;
    app = await startApp(stack);
    await ended(pr);
    await waitFor(() => (own(pr, BOARD)[0]?.body ?? "").includes("4/4 reviewers finished"));

    const after = router.calls("[term]");
    for (const model of MODELS) {
      expect(after.get(`${model.id}/security`)).toBe(before.get(`${model.id}/security`));
    }
    expect(savedLenses(stack.dataDir, pr.number).map((entry) => entry.state)).toEqual(
      Array(MODELS.length * 2).fill("done"),
    );
    const board = own(pr, BOARD);
    expect(board).toHaveLength(1);
    // Not even while the app was down did the board call a lens cancelled or the round finished.
    const boardBodies = stack.github
      .requests({
        method: "PATCH",
        path: `/repos/octo-org/durable/issues/comments/${board[0]?.id}`,
      })
      .map((request) => (request.body as { body: string }).body);
    const untilRestart = boardBodies.filter((body) => !body.includes("resumed after a restart"));
    expect(untilRestart.length).toBeGreaterThan(0);
    for (const body of boardBodies) expect(body).not.toMatch(/cancelled|🚫|shutting down/);
    for (const body of untilRestart) expect(body).not.toContain("4/4 reviewers finished");
    const repoPath = `/repos/octo-org/durable`;
    expect(posts(`${repoPath}/issues/${pr.number}/comments`)).toBe(2);
    expect(posts(`${repoPath}/pulls/${pr.number}/reviews`)).toBe(1);
    expect(stack.github.checkRuns(pr.headSha)).toHaveLength(1);
    expect(stack.github.validationErrors).toEqual([]);
  });

  it("a delivery that arrives while shutting down fails, and its redelivery after the restart starts the round", async () => {
    const { github } = stack;
    const interrupted = await openMidRound("[drain]", "src/drain.js");
    const late = github.addPullRequest({
      owner: "octo-org",
      repo: "durable",
      title: "Arrives during a deploy [late]",
      files: [{ path: "src/late.js", base: "a\n", head: "b\n" }],
    });
    const event = pullRequestEvent("opened", late);
    // The interrupted round's last board edit is slow, so the shutdown takes a few seconds.
    github.setLatency("PATCH", "/repos/octo-org/durable/issues/comments/*", 3_000);
    const exited = app.stop("SIGTERM");
    await waitFor(() => app.output().includes("SIGTERM: shutting down"));
    const refused = await deliver(app.webhookUrl, event, WEBHOOK_SECRET);
    expect(refused.status).toBe(503);
    expect(await exited).toBe(0);
    github.clearFaults();
    expect(github.checkRuns(late.headSha)).toEqual([]);

    correctnessHangs = false;
    app = await startApp(stack);
    const redelivered = await deliver(app.webhookUrl, event, WEBHOOK_SECRET);
    expect(redelivered.status).toBeLessThan(300);
    await waitFor(
      () => github.checkRuns(late.headSha).some((check) => check.status === "completed"),
      20_000,
    );
    expect(router.calls("[late]").size).toBe(MODELS.length * 2);
    // The round the shutdown interrupted resumes too.
    await ended(interrupted);
  });

  it("SIGKILL while publishing: the restart finishes without posting the review again", async () => {
    const { github } = stack;
    const lines = Array.from(
      { length: 12 },
      (_, index) => `export const part${index + 1} = ${index};`,
    );
    const pr = github.addPullRequest({
      owner: "octo-org",
      repo: "durable",
      title: "Sessions [publish]",
      files: [
        {
          path: "src/session.js",
          base: `${lines.join("\n")}\n`,
          head: `${lines.map((line, index) => (index === 1 ? "console.log(secret);" : line)).join("\n")}\n`,
        },
      ],
    });
    // The check's completion, the last step of publishing, stalls: the app dies before it.
    github.setLatency("PATCH", "/repos/octo-org/durable/check-runs/*", 30_000);
    await deliver(app.webhookUrl, pullRequestEvent("opened", pr), WEBHOOK_SECRET);
    await waitFor(() => github.reviews(pr).length === 1, 20_000);
    // The review is posted and recorded: the app has gone on to complete this PR's check.
    const checkId = github.checkRuns(pr.headSha)[0]?.id;
    await waitFor(
      () =>
        github.requests({ method: "PATCH", path: `/repos/octo-org/durable/check-runs/${checkId}` })
          .length > 0,
    );
    const calls = router.total("[publish]");
    await app.stop("SIGKILL");
    github.clearFaults();

    app = await startApp(stack);
    await waitFor(
      () => github.checkRuns(pr.headSha).some((check) => check.status === "completed"),
      20_000,
    );
    expect(router.total("[publish]")).toBe(calls);
    expect(github.reviews(pr)).toHaveLength(1);
    expect(own(pr, CONSENSUS)).toHaveLength(1);
    expect(own(pr, BOARD)).toHaveLength(1);
    expect(github.checkRuns(pr.headSha)).toHaveLength(1);
    expect(github.validationErrors).toEqual([]);
  });
});
