import { appendFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MARKERS } from "../../src/render/markers.js";
import { assignReviewers } from "../../src/run/assign-reviewers.js";
import { smallStepSeed } from "../../src/run/small-step-seed.js";
import { deliver, type PullRequestSnapshot, pullRequestEvent } from "../fakes/fake-github/index.js";
import { CHALLENGE_LENS } from "../fakes/model-script.js";
import {
  MODELS,
  type RunningApp,
  type Stack,
  startApp,
  startStack,
  WEBHOOK_SECRET,
  waitFor,
} from "./harness.js";
import { type ReviewRouter, routeReviews } from "./route-reviews.js";
import { aHead, bHead, INJECTION, lines, NAN, text, withLine } from "./step-fixtures.js";

/*
 * Light incremental steps against the running app (review.smallStep at its defaults): after a
 * one-file push of one line, each lens is reviewed by one of the four models and security by two
 * (the fakes count the sessions per model and lens), dealt as assignReviewers deals by the app's
 * secret and the head, and the open findings the push left alone stay open; a push that changes
 * only an ignored file sends no review session at all, carries the findings, and the check still
 * completes. A fork's push, and a push by an author who cannot write, get every model.
 */

const TAG = "[small-step]";
const CONSENSUS = MARKERS.consensus;
const BOARD = MARKERS.statusBoard;
const LENSES = ["security", "correctness", "maintainability", "performance", "error-handling"];

describe("small incremental steps", { timeout: 90_000 }, () => {
  let stack: Stack;
  let app: RunningApp;
  let router: ReviewRouter;

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
  /** Review sessions since `before` (calls per model/lens; one call each, nothing read), lens by lens. */
  const sessionsSince = (before: Map<string, number>) => {
    const perLens = new Map<string, string[]>();
    for (const [key, count] of router.calls(TAG)) {
      const added = count - (before.get(key) ?? 0);
      const model = key.slice(0, key.lastIndexOf("/"));
      const lens = key.slice(key.lastIndexOf("/") + 1);
      if (added === 0 || lens.startsWith(CHALLENGE_LENS)) continue;
      for (let index = 0; index < added; index++)
        perLens.set(lens, [...(perLens.get(lens) ?? []), model]);
    }
    return perLens;
  };

  beforeAll(async () => {
    stack = await startStack();
    router = routeReviews(stack, {
      [TAG]: {
        // Every model finds both on the full review (agreed, so nothing is cross-examined);
        // an incremental review sees only the push, far from both, and finds nothing.
        findings: (_model, lens, request) => {
          if (lens !== "security") return [];
          const incremental = request.messages.some((message) =>
            (message.content ?? "").includes("This round is incremental"),
          );
          return incremental ? [] : [INJECTION, NAN];
        },
      },
    });
    stack.github.addRepo({
      owner: "octo-org",
      name: "small-steps",
      ownerType: "Organization",
      files: { ".github/gadfly.yml": 'ignore: ["docs/**"]\n' },
    });
    // Small steps are for authors who can write to the repository.
    stack.github.addCollaborator("octocat", "write", { owner: "octo-org", repo: "small-steps" });
    // A reader's pushes are paced (readers.*): here only whether a small step applies is under
    // test, so the reader's second push is not held for the interval.
    await appendFile(stack.configPath, "readers:\n  minIntervalSeconds: 0\n");
    app = await startApp(stack);
  }, 60_000);

  afterAll(async () => {
    await app?.stop();
    await stack?.close();
  });

  let first: PullRequestSnapshot;
  let second: PullRequestSnapshot;

  it("round 2 after a one-line push sends one session per lens, two on security, and keeps the open findings", async () => {
    const { github } = stack;
    first = github.addPullRequest({
      owner: "octo-org",
      repo: "small-steps",
      title: `Settings ${TAG}`,
      files: [
        { path: "src/a.js", base: text(lines(30, "a")), head: text(aHead) },
        { path: "src/b.js", base: text(lines(20, "b")), head: text(bHead) },
        { path: "docs/notes.md", base: "notes\n", head: "notes, and more\n" },
      ],
    });
    await deliver(app.webhookUrl, pullRequestEvent("opened", first), WEBHOOK_SECRET);
    const round1 = await consensusAt(first);
    expect(round1).toContain("Shell command built from");
    // The full first round: every model on every lens.
    const full = sessionsSince(new Map());
    for (const lens of LENSES) expect(new Set(full.get(lens))).toHaveProperty("size", 4);

    const before = router.calls(TAG);
    second = github.pushCommit(first, [
      { path: "src/b.js", content: text(withLine(bHead, 18, "export const b18 = 1800;")) },
    ]);
    await deliver(
      app.webhookUrl,
      pullRequestEvent("synchronize", second, { before: first.headSha }),
      WEBHOOK_SECRET,
    );
    const round2 = await consensusAt(second);
    const sessions = sessionsSince(before);
    // Dealt by the app's secret and the head, the security lens to two models.
    const dealt = assignReviewers(
      MODELS.map((model) => model.id),
      LENSES,
      1,
      smallStepSeed(WEBHOOK_SECRET, `octo-org/small-steps#${second.number}`, second.headSha),
      new Map([["security", 2]]),
    );
    expect(dealt.get("security")).toHaveLength(2);
    expect(Object.fromEntries(sessions)).toEqual(Object.fromEntries(dealt));
    // Spread: every model reviewed at least one lens.
    expect(new Set([...sessions.values()].flat()).size).toBe(4);

    const since = first.headSha.slice(0, 7);
    const note = `small step (2 lines since ${since}): one model per lens, 2 on security`;
    expect(round2).toContain(note);
    expect(round2).toMatch(/✅ 0 fixed · 🔁 2 still open · 🆕 0 new/);
    expect(round2).toContain("Shell command built from");
    const board = own(second, BOARD)[0]?.body ?? "";
    expect(board).toContain(note);
    const check = completed(second.headSha)[0];
    expect(check?.output?.title).toContain(note);
    expect(github.validationErrors).toEqual([]);
  });

  it("a push touching only an ignored file sends no review session and carries the findings", async () => {
    const { github } = stack;
    const before = router.total(TAG);
    const third = github.pushCommit(second, [
      { path: "docs/notes.md", content: "notes, and more, and more\n" },
    ]);
    await deliver(
      app.webhookUrl,
      pullRequestEvent("synchronize", third, { before: second.headSha }),
      WEBHOOK_SECRET,
    );
    const round3 = await consensusAt(third);
    expect(router.total(TAG)).toBe(before);
    const note = `nothing to review since ${second.headSha.slice(0, 7)}: 2 open findings carried`;
    expect(round3).toContain(note);
    expect(round3).toMatch(/🔁 2 still open/);
    expect(round3).not.toContain("no model completed its review");
    // No model had a lens in it: none is listed as having failed one.
    expect(round3).not.toContain("no lens completed");
    const check = completed(third.headSha)[0];
    expect(check?.conclusion).toBe("neutral");
    // The ignored file is named in the summary; the maintainers' own ignore glob does not make
    // the review partial.
    expect(check?.output?.title).toBe(`Significant issues — ${note}`);
    await waitFor(() => (own(third, BOARD)[0]?.body ?? "").includes(note), 10_000);
    expect(github.validationErrors).toEqual([]);
  });

  it("a one-line push to a fork's PR, or by an author who cannot write, is reviewed by every model", async () => {
    const { github } = stack;
    github.addCollaborator("reader", "read", { owner: "octo-org", repo: "small-steps" });
    const authors = [
      { user: "mallory", headRepository: { owner: "mallory", name: "small-steps" } },
      { user: "reader" },
    ];
    for (const author of authors) {
      const opened = github.addPullRequest({
        owner: "octo-org",
        repo: "small-steps",
        title: `Settings ${TAG}`,
        ...author,
        files: [
          { path: "src/a.js", base: text(lines(30, "a")), head: text(aHead) },
          { path: "src/b.js", base: text(lines(20, "b")), head: text(bHead) },
        ],
      });
      await deliver(app.webhookUrl, pullRequestEvent("opened", opened), WEBHOOK_SECRET);
      await consensusAt(opened);
      const before = router.calls(TAG);
      const pushed = github.pushCommit(opened, [
        { path: "src/b.js", content: text(withLine(bHead, 18, "export const b18 = 1800;")) },
      ]);
      await deliver(
        app.webhookUrl,
        pullRequestEvent("synchronize", pushed, { before: opened.headSha }),
        WEBHOOK_SECRET,
      );
      const round2 = await consensusAt(pushed);
      expect(round2).not.toContain("small step");
      const sessions = sessionsSince(before);
      for (const lens of LENSES) expect(new Set(sessions.get(lens))).toHaveProperty("size", 4);
    }
    expect(github.validationErrors).toEqual([]);
  });
});
