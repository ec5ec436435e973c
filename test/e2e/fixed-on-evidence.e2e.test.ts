import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
 * "Fixed" only on evidence, against the running app. A 2-model finding whose two reporters are
 * down on the next (full) round is not fixed by their silence: it stays listed, said to be not
 * re-checked this round, and its inline thread stays open with no "fixed" reply. A 2-model
 * finding whose lines a push touched (a comment appended) and that one reporter refutes on
 * re-check (the other unsure) stays open: one refutation is not the quorum that made it.
 */

const REPO = { owner: "octo-org", repo: "evidence" };
const CONSENSUS = MARKERS.consensus;
const REPORTERS = new Set(["glm-5.2:cloud", "kimi-k2.6:cloud"]);
const INCREMENTAL_NOTE = "This round is incremental";

const incremental = (request: FakeModelRequest) =>
  request.messages.some((message) => (message.content ?? "").includes(INCREMENTAL_NOTE));

describe("fixed only on evidence", { timeout: 120_000 }, () => {
  let stack: Stack;
  let app: RunningApp;
  let reportersDown = false;
  /** The reporters finish every lens but report nothing (a model's variance between rounds). */
  let reportersQuiet = false;

  const own = (pr: PullRequestSnapshot) =>
    stack.github
      .comments(pr)
      .filter(
        (comment) => comment.user.login === "gadfly[bot]" && comment.body.startsWith(CONSENSUS),
      );
  const consensusAt = async (pr: PullRequestSnapshot) => {
    await waitFor(
      () => stack.github.checkRuns(pr.headSha).some((check) => check.status === "completed"),
      60_000,
    );
    await waitFor(() => (own(pr)[0]?.body ?? "").includes(pr.headSha), 10_000);
    return own(pr)[0]?.body ?? "";
  };
  const push = async (pr: PullRequestSnapshot, next: PullRequestSnapshot) => {
    await deliver(
      app.webhookUrl,
      pullRequestEvent("synchronize", next, { before: pr.headSha }),
      WEBHOOK_SECRET,
    );
    return consensusAt(next);
  };
  /** The finding's inline thread: open, and no reply of ours under it. */
  const threadOpen = (pr: PullRequestSnapshot) => {
    const threads = stack.github
      .reviewThreads(pr)
      .filter((thread) => thread.comments[0]?.body.includes(INJECTION.title));
    expect(threads).toHaveLength(1);
    expect(threads[0]?.isResolved).toBe(false);
    expect(threads[0]?.comments).toHaveLength(1);
  };

  beforeAll(async () => {
    stack = await startStack();
    // glm and kimi find the injection on a full review (agreed by two); nobody else does, and
    // an incremental review, which sees only the push, reports nothing.
    const findings = (model: string, lens: string, request: FakeModelRequest) =>
      lens === "security" && REPORTERS.has(model) && !incremental(request) ? [INJECTION] : [];
    routeReviews(stack, {
      "[silent]": {
        findings,
        intercept: (request) =>
          reportersDown && REPORTERS.has(request.model)
            ? { error: 400, body: { error: "provider down" } }
            : undefined,
      },
      "[refuted]": {
        findings,
        challenge: (challenger) => (challenger === "glm-5.2:cloud" ? "refute" : "unsure"),
      },
      // Its reporters, asked again at the file's new path, still see it.
      "[moved]": { findings, challenge: () => "confirm" },
      "[unchanged]": {
        findings: (model, lens, request) => (reportersQuiet ? [] : findings(model, lens, request)),
      },
    });
    stack.github.addRepo({ owner: REPO.owner, name: REPO.repo, ownerType: "Organization" });
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
    expect(await consensusAt(pr)).toContain(INJECTION.title);
    await waitFor(() => stack.github.reviewThreads(pr).length >= 1, 10_000);
    return pr;
  };

  it("a finding whose reporters failed this round is not fixed, and its thread stays open", async () => {
    const first = await open("Settings [silent]");
    reportersDown = true;
    // A force-push: a full round, in which glm and kimi fail every lens.
    const rewritten = stack.github.pushCommit(
      first,
      [{ path: "src/b.js", content: text(withLine(bHead, 18, "export const b18 = 1800;")) }],
      { rewrite: true },
    );
    const round2 = await push(first, rewritten);
    reportersDown = false;
    expect(round2).toMatch(/✅ 0 fixed/);
    expect(round2).toContain(INJECTION.title);
    expect(round2).toContain("not re-checked this round");
    threadOpen(rewritten);
    expect(stack.github.validationErrors).toEqual([]);
  });

  it("one refutation on re-check leaves a 2-model finding open", async () => {
    const first = await open("Settings [refuted]");
    const touched = stack.github.pushCommit(first, [
      {
        path: "src/a.js",
        content: text(withLine(aHead, 5, `${aHead[4]} // sanitized upstream`)),
      },
    ]);
    const round2 = await push(first, touched);
    expect(round2).toMatch(/✅ 0 fixed/);
    expect(round2).toContain(INJECTION.title);
    expect(round2).toContain("not confirmed fixed, so kept open");
    threadOpen(touched);
    expect(stack.github.validationErrors).toEqual([]);
  });

  // The move is a step GitHub's compare may not pair (the file is new there): the whole-PR
  // patch, which knows where it came from, carries the finding to its new path.
  it("a finding in a file moved elsewhere (its import updated) stays open at its new path", async () => {
    const first = await open("Settings [moved]");
    const moved = stack.github.pushCommit(first, [
      { path: "src/vendor/a.js", previousPath: "src/a.js", content: text(aHead) },
      { path: "src/b.js", content: text(withLine(bHead, 18, 'import "./vendor/a.js";')) },
    ]);
    const round2 = await push(first, moved);
    expect(round2).toMatch(/✅ 0 fixed/);
    expect(round2).toContain(INJECTION.title);
    expect(round2).toContain("src/vendor/a.js");
    threadOpen(moved);
    expect(stack.github.validationErrors).toEqual([]);
  });

  it("a full round whose reporters say nothing does not fix a finding whose code is unchanged, and does fix one whose code changed", async () => {
    const first = await open("Settings [unchanged]");
    reportersQuiet = true;
    try {
      // A force-push (a full round) that leaves the finding's lines as they were.
      const rewritten = stack.github.pushCommit(
        first,
        [{ path: "src/b.js", content: text(withLine(bHead, 18, "export const b18 = 1800;")) }],
        { rewrite: true },
      );
      const round2 = await push(first, rewritten);
      expect(round2).toMatch(/✅ 0 fixed/);
      expect(round2).toContain(INJECTION.title);
      expect(round2).toContain("not confirmed fixed, so kept open");
      threadOpen(rewritten);

      // A force-push that moves the file, its code as it was: kept open, at the new path.
      const moved = stack.github.pushCommit(
        rewritten,
        [{ path: "src/vendor/a.js", previousPath: "src/a.js", content: text(aHead) }],
        { rewrite: true },
      );
      const movedRound = await push(rewritten, moved);
      expect(movedRound).toMatch(/✅ 0 fixed/);
      expect(movedRound).toContain("src/vendor/a.js");

      // The finding's line rewritten, and still nobody reports it: now its silence is evidence.
      const fixed = stack.github.pushCommit(
        moved,
        [{ path: "src/vendor/a.js", content: text(withLine(aHead, 5, "export const a5 = 5;")) }],
        { rewrite: true },
      );
      const round3 = await push(moved, fixed);
      expect(round3).toMatch(/✅ 1 fixed/);
    } finally {
      reportersQuiet = false;
    }
    expect(stack.github.validationErrors).toEqual([]);
  });
});
