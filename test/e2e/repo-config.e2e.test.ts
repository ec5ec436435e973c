import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LensFinding } from "../../src/findings/schema.js";
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
import { type ReviewRouter, routeReviews } from "./route-reviews.js";

const BOARD = MARKERS.statusBoard;
const CONSENSUS = MARKERS.consensus;
const NOTICE = "<!-- gadfly-config-notice -->";

const baseLines = Array.from(
  { length: 30 },
  (_, index) => `export const setting${index + 1} = ${index + 1};`,
);
const withLine = (lines: readonly string[], line: number, text: string) =>
  lines.map((entry, index) => (index === line - 1 ? text : entry));
const firstHead = withLine(
  withLine(baseLines, 10, "export const isAdmin = (token) => token == process.env.ADMIN_TOKEN;"),
  20,
  "export const retries = Number(process.env.RETRIES);",
);
const fixedHead = withLine(
  firstHead,
  10,
  "export const isAdmin = (token) => timingSafeEqual(Buffer.from(token), adminToken);",
);
const text = (lines: readonly string[]) => `${lines.join("\n")}\n`;

const finding = (line: number, severity: LensFinding["severity"], title: string): LensFinding => ({
  file: "src/settings.js",
  line,
  endLine: line,
  severity,
  confidence: "high",
  title,
  body: `${title}: see line ${line}.`,
});
const TIMING = finding(10, "high", "Admin token compared with `==` leaks timing and coerces types");
const NAN = finding(
  20,
  "medium",
  "`Number(process.env.RETRIES)` is NaN when the variable is unset",
);
const UNCHANGED = finding(28, "low", "`setting28` is a magic number on an unchanged line");

describe("repository config and follow-up rounds", { timeout: 30_000 }, () => {
  let stack: Stack;
  let app: RunningApp;
  let router: ReviewRouter;

  const own = (pr: PullRequestSnapshot, marker: string) =>
    stack.github
      .comments(pr)
      .filter((comment) => comment.user.login === "gadfly[bot]" && comment.body.startsWith(marker));
  const completed = (sha: string) =>
    stack.github.checkRuns(sha).filter((check) => check.status === "completed");
  const decision = async (deliveryId: string) => {
    const skipped = () =>
      appLogs(app.output()).find((line) => line.delivery === deliveryId && line.msg === "no round");
    await waitFor(() => skipped() !== undefined, 5_000);
    return skipped()?.reason;
  };
  const askForReview = async (pr: PullRequestSnapshot) => {
    const comment = stack.github.addComment(pr, { body: "@gadfly review", user: "maintainer" });
    await deliver(
      app.webhookUrl,
      issueCommentEvent({ pullRequest: pr, comment, association: "MEMBER" }),
      WEBHOOK_SECRET,
    );
    return comment;
  };

  beforeAll(async () => {
    stack = await startStack();
    router = routeReviews(stack, {
      "[bad-config]": {},
      "[solo]": {},
      "[follow-up]": {
        // Every model finds the same issues; the fix removes the timing one.
        findings: (_model, lens, request) => {
          if (lens !== "security") return [];
          const fixed = request.messages.some(
            (message) => message.content?.includes("timingSafeEqual") === true,
          );
          return fixed ? [NAN, UNCHANGED] : [TIMING, NAN, UNCHANGED];
        },
        // Round 2 is incremental and its push touched the timing finding's line: the finding is
        // re-checked at the new head by a model that reported it, which sees the fix.
        challenge: (_challenger, claim) => (claim.title === TIMING.title ? "refute" : "unsure"),
      },
    });
    const { github } = stack;
    github.addRepo({
      owner: "octo-org",
      name: "bad-config",
      ownerType: "Organization",
      files: { ".github/gadfly.yml": "lenses: [security]\nonPush: sometimes\n" },
    });
    github.addRepo({
      owner: "octo-org",
      name: "quiet",
      ownerType: "Organization",
      files: { ".github/gadfly.yml": "onPush: off\nlenses: [security]\n" },
    });
    // The permission API decides who may trigger, not the comment's association.
    github.addCollaborator("maintainer", "write", { owner: "octo-org", repo: "quiet" });
    github.addRepo({
      owner: "octo-org",
      name: "solo",
      ownerType: "Organization",
      files: { ".github/gadfly.yml": "models: [gpt-a]\nlenses: [security, correctness]\n" },
    });
    app = await startApp(stack);
  }, 60_000);

  afterAll(async () => {
    await app?.stop();
    await stack?.close();
  });

  it("posts a notice naming the invalid field and reviews on the defaults", async () => {
    const { github } = stack;
    const pr = github.addPullRequest({
      owner: "octo-org",
      repo: "bad-config",
      title: "Bad config [bad-config]",
      files: [{ path: "src/a.js", base: "a\n", head: "b\n" }],
    });
    await deliver(app.webhookUrl, pullRequestEvent("opened", pr), WEBHOOK_SECRET);
    await waitFor(() => completed(pr.headSha).length === 1, 20_000);

    const notices = own(pr, NOTICE);
    expect(notices).toHaveLength(1);
    expect(notices[0]?.body).toContain("`onPush`");
    expect(notices[0]?.body).toContain("default settings");
    expect(completed(pr.headSha)[0]?.conclusion).toBe("neutral");
    // The defaults: every model through every lens of the app (the file's `lenses` was not used).
    const calls = router.calls("[bad-config]");
    expect(calls.size).toBe(MODELS.length * 5);
    await waitFor(() => own(pr, CONSENSUS).length === 1);
    expect(own(pr, CONSENSUS)[0]?.body).toContain("consensus across 4 models");
  });

  it("reviews with only the model the repository chose", async () => {
    const { github } = stack;
    const pr = github.addPullRequest({
      owner: "octo-org",
      repo: "solo",
      title: "One model [solo]",
      files: [{ path: "src/a.js", base: "a\n", head: "b\n" }],
    });
    await deliver(app.webhookUrl, pullRequestEvent("opened", pr), WEBHOOK_SECRET);
    await waitFor(() => completed(pr.headSha).length === 1, 20_000);
    expect(router.calls("[solo]")).toEqual(
      new Map([
        ["gpt-a/security", 1],
        ["gpt-a/correctness", 1],
      ]),
    );
    await waitFor(() => own(pr, CONSENSUS).length === 1);
    expect(own(pr, CONSENSUS)[0]?.body).toContain("consensus across 1 model");
    expect(own(pr, BOARD)[0]?.body).toContain("1/1 reviewers finished");
    expect(own(pr, NOTICE)).toEqual([]);
  });

  let first: PullRequestSnapshot;
  let board: { id: number }[] = [];
  let consensus: { id: number }[] = [];

  it("with `onPush: off`, opening starts nothing and `@gadfly review` does; unchanged lines stay out of the review", async () => {
    const { github } = stack;
    first = github.addPullRequest({
      owner: "octo-org",
      repo: "quiet",
      title: "Settings [follow-up]",
      files: [{ path: "src/settings.js", base: text(baseLines), head: text(firstHead) }],
    });
    const opened = pullRequestEvent("opened", first);
    await deliver(app.webhookUrl, opened, WEBHOOK_SECRET);
    expect(await decision(opened.id)).toBe("onPush is off for this repository");

    const trigger = await askForReview(first);
    await waitFor(() => completed(first.headSha).length === 1, 20_000);
    expect(github.reactions(trigger.id).map((reaction) => reaction.content)).toEqual(["eyes"]);
    await waitFor(() => own(first, CONSENSUS).length === 1);
    board = own(first, BOARD);
    consensus = own(first, CONSENSUS);
    expect(board).toHaveLength(1);
    const firstReviews = github.reviews(first);
    expect(firstReviews).toHaveLength(1);
    // Inline only on changed lines; the unchanged line is in the consensus and the review body.
    expect(firstReviews[0]?.comments.map((comment) => comment.line).sort()).toEqual([10, 20]);
    const consensusBody = own(first, CONSENSUS)[0]?.body ?? "";
    expect(consensusBody).toContain("is a magic number on an unchanged line");
    expect(consensusBody).toContain("src/settings.js:28");
  });

  it("after a fix push (ignored), `@gadfly review` edits the same comments, shows the fix, posts nothing twice", async () => {
    const { github } = stack;

    const second = github.pushCommit(first, [
      { path: "src/settings.js", content: text(fixedHead) },
    ]);
    const pushed = pullRequestEvent("synchronize", second, { before: first.headSha });
    await deliver(app.webhookUrl, pushed, WEBHOOK_SECRET);
    expect(await decision(pushed.id)).toBe("onPush is off for this repository");
    expect(github.checkRuns(second.headSha)).toEqual([]);

    await askForReview(second);
    await waitFor(() => completed(second.headSha).length === 1, 20_000);
    await waitFor(() => (own(second, CONSENSUS)[0]?.body ?? "").includes(second.headSha));

    // The same two comments, edited in place.
    expect(own(second, BOARD).map((comment) => comment.id)).toEqual(
      board.map((comment) => comment.id),
    );
    expect(own(second, CONSENSUS).map((comment) => comment.id)).toEqual(
      consensus.map((comment) => comment.id),
    );
    const since = own(second, CONSENSUS)[0]?.body ?? "";
    expect(since).toMatch(/Since the last round.*✅ 1 fixed · 🔁 2 still open · 🆕 0 new/);
    const fixedSection = since.slice(
      since.indexOf("✅ **Fixed**"),
      since.indexOf("🔁 **Still open**"),
    );
    expect(fixedSection).toContain("Admin token compared with");
    // No inline comment twice: the still-open finding was posted in round 1.
    const comments = github.reviews(second).flatMap((review) => review.comments);
    const inline = comments.filter((comment) => comment.inReplyToId === undefined);
    expect(inline.map((comment) => comment.line).sort()).toEqual([10, 20]);
    // The fixed finding's thread got one reply saying so, and was resolved.
    const replies = comments.filter((comment) => comment.inReplyToId !== undefined);
    expect(replies.map((reply) => reply.body)).toEqual([
      `Fixed in \`${second.headSha.slice(0, 7)}\`.`,
    ]);
    expect(github.reviewThreads(second).filter((thread) => thread.isResolved)).toHaveLength(1);
    expect(github.validationErrors).toEqual([]);
  });
});
