import { writeFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LensFinding } from "../../src/findings/schema.js";
import { MARKERS } from "../../src/render/markers.js";
import { deliver, type PullRequestSnapshot, pullRequestEvent } from "../fakes/fake-github/index.js";
import type { FakeModelRequest } from "../fakes/model-script.js";
import {
  type RunningApp,
  type Stack,
  startApp,
  startStack,
  WEBHOOK_SECRET,
  waitFor,
} from "./harness.js";
import { routeReviews } from "./route-reviews.js";
import { aHead, bHead, INJECTION, lines, text, withLine } from "./step-fixtures.js";

/*
 * What a step is measured against, against the running app. A merge of main whose resolution
 * keeps the file main fixed makes the PR revert the fix: the step is what the PR's diff now
 * does that it did not, so the revert is reviewed although no commit of the author's touches it.
 * A new base branch (`pull_request.edited`) is a full round. A round where every lens failed
 * (every provider down) is no baseline: the next one-line push is reviewed in full, so the code
 * pushed while nothing ran is seen.
 */

const REPO = { owner: "octo-org", repo: "baselines" };
const CONSENSUS = MARKERS.consensus;
const BOARD = MARKERS.statusBoard;

const finding = (file: string, line: number, title: string): LensFinding => ({
  file,
  line,
  endLine: line,
  severity: "high",
  confidence: "high",
  title,
  body: `${title}: see ${file}:${line}.`,
});
const VULNERABLE_QUERY =
  'export const find = (id) => db.query("SELECT * FROM t WHERE id = " + id);';
const FIXED_QUERY = 'export const find = (id) => db.query("SELECT * FROM t WHERE id = ?", [id]);';
const SQL = finding("src/db.js", 1, "SQL built from `id` allows injection");
const RM_LINE = 'export const wipe = (dir) => exec("rm -rf " + dir);';
const RM = finding("src/c.js", 3, "`rm -rf` built from `dir` allows injection");

/** Whether the diff a reviewer was shown (its messages) holds this text. */
const shown = (request: FakeModelRequest, needle: string) =>
  request.messages.some((message) => (message.content ?? "").includes(needle));

describe("what a step is measured against", { timeout: 120_000 }, () => {
  let stack: Stack;
  let app: RunningApp;
  let providersDown = false;

  const own = (pr: PullRequestSnapshot, marker: string) =>
    stack.github
      .comments(pr)
      .filter((comment) => comment.user.login === "gadfly[bot]" && comment.body.startsWith(marker));
  const completed = (sha: string) =>
    stack.github.checkRuns(sha).filter((check) => check.status === "completed");
  const consensusAt = async (pr: PullRequestSnapshot) => {
    await waitFor(() => completed(pr.headSha).length >= 1, 60_000);
    await waitFor(() => (own(pr, CONSENSUS)[0]?.body ?? "").includes(pr.headSha), 10_000);
    return own(pr, CONSENSUS)[0]?.body ?? "";
  };
  const push = async (pr: PullRequestSnapshot, next: PullRequestSnapshot) => {
    await deliver(
      app.webhookUrl,
      pullRequestEvent("synchronize", next, { before: pr.headSha }),
      WEBHOOK_SECRET,
    );
    return consensusAt(next);
  };

  beforeAll(async () => {
    stack = await startStack();
    // Each model reports what its security lens is shown: the injection of src/a.js in the
    // whole PR, the SQL revert when src/db.js's patch is shown, src/c.js's `rm -rf` likewise.
    const security = (_model: string, lens: string, request: FakeModelRequest) => {
      if (lens !== "security") return [];
      const found: LensFinding[] = [];
      if (shown(request, "+export const run = (cmd)")) found.push(INJECTION);
      if (shown(request, `+${VULNERABLE_QUERY}`)) found.push(SQL);
      if (shown(request, `+${RM_LINE}`)) found.push(RM);
      return found;
    };
    routeReviews(stack, {
      "[revert]": { findings: security },
      "[rebase]": { findings: security },
      "[down]": {
        findings: security,
        intercept: () =>
          providersDown ? { error: 400, body: { error: "provider down" } } : undefined,
      },
    });
    stack.github.addRepo({
      owner: REPO.owner,
      name: REPO.repo,
      ownerType: "Organization",
      files: { "src/db.js": `${VULNERABLE_QUERY}\n` },
    });
    // The author can write: small steps would apply, so only the baseline rules keep them off.
    stack.github.addCollaborator("octocat", "write", REPO);
    app = await startApp(stack);
  }, 60_000);

  afterAll(async () => {
    await app?.stop();
    await stack?.close();
  });

  const open = async (title: string) => {
    const pr = stack.github.addPullRequest({
      ...REPO,
      title,
      files: [
        { path: "src/a.js", base: text(lines(30, "a")), head: text(aHead) },
        { path: "src/b.js", base: text(lines(20, "b")), head: text(bHead) },
      ],
    });
    await deliver(app.webhookUrl, pullRequestEvent("opened", pr), WEBHOOK_SECRET);
    const round1 = await consensusAt(pr);
    expect(round1).toContain(INJECTION.title);
    return pr;
  };

  it("a merge of main that reverts main's fix is reviewed and its finding shown", async () => {
    const { github } = stack;
    const first = await open("Settings [revert]");
    // The maintainer fixes the injection on main; the author merges main and keeps the old file.
    github.setFile("main", "src/db.js", `${FIXED_QUERY}\n`, REPO);
    const merged = github.pushCommit(
      first,
      [{ path: "src/db.js", content: `${VULNERABLE_QUERY}\n` }],
      {
        mergeBase: true,
      },
    );
    const round2 = await push(first, merged);
    expect(round2).not.toContain("nothing to review since");
    expect(round2).toContain(SQL.title);
    expect(completed(merged.headSha)[0]?.output?.title).toContain("Significant issues");
    expect(github.validationErrors).toEqual([]);
  });

  it("a new base branch is a full round", async () => {
    const { github } = stack;
    github.setFile("release", "RELEASE.md", "1.0\n", REPO);
    const first = await open("Settings [rebase]");
    const moved = github.changeBase(first, "release");
    await deliver(
      app.webhookUrl,
      pullRequestEvent("edited", moved, {
        changes: { base: { ref: { from: "main" }, sha: { from: first.baseSha } } },
      }),
      WEBHOOK_SECRET,
    );
    await waitFor(() => completed(moved.headSha).length >= 2, 60_000);
    const board = own(moved, BOARD)[0]?.body ?? "";
    expect(board).toContain("Full review: the pull request's base is not the one");
    // A title edit alone starts nothing.
    const checks = github.checkRuns(moved.headSha).length;
    await deliver(
      app.webhookUrl,
      pullRequestEvent("edited", moved, { changes: { title: { from: "Settings" } } }),
      WEBHOOK_SECRET,
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(github.checkRuns(moved.headSha)).toHaveLength(checks);
    expect(github.validationErrors).toEqual([]);
  });

  it("after a round where every lens failed, the next one-line push still reviews the code pushed then", async () => {
    const { github } = stack;
    const first = await open("Settings [down]");
    providersDown = true;
    const second = github.pushCommit(first, [
      {
        path: "src/c.js",
        content: text(["export const c1 = 1;", "export const c2 = 2;", RM_LINE]),
      },
    ]);
    const round2 = await push(first, second);
    expect(round2).not.toContain(RM.title);
    providersDown = false;
    const third = github.pushCommit(second, [
      { path: "src/b.js", content: text(withLine(bHead, 18, "export const b18 = 1800;")) },
    ]);
    const round3 = await push(second, third);
    // Not a small step against the round that saw nothing: the whole PR, src/c.js with it.
    expect(round3).not.toContain("small step");
    expect(round3).toContain(RM.title);
    const board = own(third, BOARD)[0]?.body ?? "";
    expect(board).toContain("Full review: a lens of the round at");
    expect(github.validationErrors).toEqual([]);
  });
});

/*
 * A round where every lens was skipped for the daily budget is no baseline either: after the
 * operator raises the cap (a restart on a new config, the store kept), the next one-line push is
 * reviewed in full and the code pushed while the budget was spent is seen.
 */
describe("after a round the budget skipped", { timeout: 150_000 }, () => {
  let stack: Stack;
  let app: RunningApp | undefined;

  const configure = async (budget: readonly string[]) => {
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
        ...budget,
        // One summary call more per round: off, as the harness has it, for the scripted counts.
        "summary: false",
        "",
      ].join("\n"),
    );
    await app?.stop();
    app = await startApp(stack);
    return app;
  };
  const reviewedAt = async (pr: PullRequestSnapshot) => {
    await waitFor(
      () => stack.github.checkRuns(pr.headSha).some((check) => check.status === "completed"),
      60_000,
    );
    const consensus = () =>
      stack.github
        .comments(pr)
        .find(
          (comment) => comment.user.login === "gadfly[bot]" && comment.body.startsWith(CONSENSUS),
        )?.body ?? "";
    await waitFor(() => consensus().includes(pr.headSha), 10_000);
    return consensus();
  };

  beforeAll(async () => {
    stack = await startStack();
    routeReviews(stack, {
      "[budget]": {
        findings: (_model, lens, request) =>
          lens === "security" && shown(request, `+${RM_LINE}`) ? [RM] : [],
      },
    });
    stack.github.addRepo({ owner: REPO.owner, name: REPO.repo, ownerType: "Organization" });
    stack.github.addCollaborator("octocat", "write", REPO);
  }, 60_000);

  afterAll(async () => {
    await app?.stop();
    await stack?.close();
  });

  it("the next one-line push reviews the code pushed while every lens was skipped", async () => {
    const { github } = stack;
    let running = await configure([]);
    const first = github.addPullRequest({
      ...REPO,
      title: "Settings [budget]",
      files: [{ path: "src/b.js", base: text(lines(20, "b")), head: text(bHead) }],
    });
    await deliver(running.webhookUrl, pullRequestEvent("opened", first), WEBHOOK_SECRET);
    await reviewedAt(first);

    // Round 1 spent more than a token today: every lens of round 2 is skipped.
    running = await configure(["budget:", "  dailyTokens: 1"]);
    const second = github.pushCommit(first, [
      {
        path: "src/c.js",
        content: text(["export const c1 = 1;", "export const c2 = 2;", RM_LINE]),
      },
    ]);
    await deliver(
      running.webhookUrl,
      pullRequestEvent("synchronize", second, { before: first.headSha }),
      WEBHOOK_SECRET,
    );
    const round2 = await reviewedAt(second);
    expect(round2).toContain("budget reached");
    expect(round2).not.toContain(RM.title);

    running = await configure([]);
    const third = github.pushCommit(second, [
      { path: "src/b.js", content: text(withLine(bHead, 18, "export const b18 = 1800;")) },
    ]);
    await deliver(
      running.webhookUrl,
      pullRequestEvent("synchronize", third, { before: second.headSha }),
      WEBHOOK_SECRET,
    );
    const round3 = await reviewedAt(third);
    expect(round3).not.toContain("small step");
    expect(round3).toContain(RM.title);
    expect(github.validationErrors).toEqual([]);
  });
});
