import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
import { routeReviews } from "./route-reviews.js";
import { aHead, bHead, INJECTION, lines, NAN, text, withLine } from "./step-fixtures.js";

/*
 * Incremental rounds at process level: after a one-file push the reviewers get that file's
 * change as the change under review (the whole PR still listed), the open findings on lines
 * the push left alone stay open, a force-push after a rebase falls back to a full review, and
 * `@gadfly review full` asks for one.
 */

const BOARD = MARKERS.statusBoard;
const CONSENSUS = MARKERS.consensus;
const INCREMENTAL_NOTE = "This round is incremental";

describe("incremental rounds", { timeout: 60_000 }, () => {
  let stack: Stack;
  let app: RunningApp;
  /** Every reviewer's messages, as sent, for the tag. */
  const seen: string[][] = [];

  const own = (pr: PullRequestSnapshot, marker: string) =>
    stack.github
      .comments(pr)
      .filter((comment) => comment.user.login === "gadfly[bot]" && comment.body.startsWith(marker));
  const completed = (sha: string) =>
    stack.github.checkRuns(sha).filter((check) => check.status === "completed");
  const consensusAt = async (pr: PullRequestSnapshot) => {
    await waitFor(() => completed(pr.headSha).length >= 1, 30_000);
    await waitFor(() => (own(pr, CONSENSUS)[0]?.body ?? "").includes(pr.headSha), 10_000);
    return own(pr, CONSENSUS)[0]?.body ?? "";
  };
  const boardAt = async (pr: PullRequestSnapshot, wanted: string) => {
    await waitFor(() => (own(pr, BOARD)[0]?.body ?? "").includes(wanted), 10_000);
    return own(pr, BOARD)[0]?.body ?? "";
  };

  beforeAll(async () => {
    stack = await startStack();
    routeReviews(stack, {
      "[incremental]": {
        // A full review finds both problems; an incremental one sees only the push, which
        // touches neither, and reports nothing.
        findings: (_model, lens, request) => {
          if (lens !== "security") return [];
          const messages = request.messages.map((message) => message.content ?? "");
          seen.push(messages);
          return messages.some((message) => message.includes(INCREMENTAL_NOTE))
            ? []
            : [INJECTION, NAN];
        },
      },
    });
    stack.github.addRepo({
      owner: "octo-org",
      name: "steps",
      ownerType: "Organization",
      files: { ".github/gadfly.yml": "lenses: [security]\n" },
    });
    stack.github.addCollaborator("maintainer", "write", { owner: "octo-org", repo: "steps" });
    // The PRs' author can write: small steps apply to them.
    stack.github.addCollaborator("octocat", "write", { owner: "octo-org", repo: "steps" });
    app = await startApp(stack);
  }, 60_000);

  afterAll(async () => {
    await app?.stop();
    await stack?.close();
  });

  let first: PullRequestSnapshot;
  let second: PullRequestSnapshot;
  let third: PullRequestSnapshot;

  it("round 2 after a one-file push reviews that file's change and keeps the untouched open findings", async () => {
    const { github } = stack;
    first = github.addPullRequest({
      owner: "octo-org",
      repo: "steps",
      title: "Settings [incremental]",
      files: [
        { path: "src/a.js", base: text(lines(30, "a")), head: text(aHead) },
        { path: "src/b.js", base: text(lines(20, "b")), head: text(bHead) },
      ],
    });
    await deliver(app.webhookUrl, pullRequestEvent("opened", first), WEBHOOK_SECRET);
    const round1 = await consensusAt(first);
    expect(round1).toContain("Shell command built from");
    expect(round1).toContain("is NaN when unset");

    // One file, one line far from the finding in it.
    second = github.pushCommit(first, [
      { path: "src/b.js", content: text(withLine(bHead, 18, "export const b18 = 1800;")) },
    ]);
    seen.length = 0;
    await deliver(
      app.webhookUrl,
      pullRequestEvent("synchronize", second, { before: first.headSha }),
      WEBHOOK_SECRET,
    );
    const round2 = await consensusAt(second);

    // The reviewers were told the change under review is b.js's step, and shown only its diff,
    // with both of the pull request's files listed.
    const incremental = seen.filter((messages) =>
      messages.some((message) => message.includes(INCREMENTAL_NOTE)),
    );
    // A one-line step is a small step (review.smallStep): two of the four models review the
    // one lens, security (never left to one model), each in one session that answers at once.
    expect(incremental).toHaveLength(2);
    expect(round2).toContain(
      `small step (2 lines since ${first.headSha.slice(0, 7)}): one model per lens, 2 on security`,
    );
    for (const messages of incremental) {
      const all = messages.join("\n");
      expect(all).toContain(`since \`${first.headSha.slice(0, 7)}\``);
      expect(all).toContain("diff --git a/src/b.js b/src/b.js");
      expect(all).toContain("+export const b18 = 1800;");
      expect(all).not.toContain("diff --git a/src/a.js");
      expect(all).toContain("src/a.js");
    }
    // Each round's merge base (the base it reviews against), and round 2's step; the base did
    // not move, so no compare of merge bases.
    expect(
      github.requests({ method: "GET", path: "/repos/octo-org/steps/compare/*" }),
    ).toHaveLength(3);
    // Nobody reported them again, and the push did not touch their lines: still open, not fixed.
    expect(round2).toMatch(/Since the last round.*✅ 0 fixed · 🔁 2 still open · 🆕 0 new/);
    expect(round2).toContain("Shell command built from");
    expect(round2).toContain("Significant issues");
    expect(round2).toContain("carried from round 1: the push left its lines alone");
    const board = await boardAt(second, "Incremental: 1 file since");
    expect(board).toContain(`Incremental: 1 file since \`${first.headSha.slice(0, 7)}\``);
    // Nothing was posted inline twice.
    const inline = github.reviews(second).flatMap((review) => review.comments);
    expect(inline.filter((comment) => comment.inReplyToId === undefined)).toHaveLength(
      github.reviews(first).flatMap((review) => review.comments).length,
    );
    expect(github.validationErrors).toEqual([]);
  });

  it("a force-push after a rebase falls back to a full review", async () => {
    const { github } = stack;
    third = github.pushCommit(
      second,
      [{ path: "src/a.js", content: text(withLine(aHead, 29, "export const a29 = 2900;")) }],
      { rewrite: true },
    );
    seen.length = 0;
    await deliver(
      app.webhookUrl,
      pullRequestEvent("synchronize", third, { before: second.headSha }),
      WEBHOOK_SECRET,
    );
    const round3 = await consensusAt(third);
    const board = await boardAt(third, "Full review");
    expect(board).toContain(
      `Full review: previous head \`${second.headSha.slice(0, 7)}\` is not an ancestor of this one (force-push or rebase)`,
    );
    expect(seen.length).toBeGreaterThanOrEqual(4);
    for (const messages of seen) {
      const all = messages.join("\n");
      expect(all).not.toContain(INCREMENTAL_NOTE);
    }
    expect(round3).toMatch(/🔁 2 still open/);
  });

  it("`@gadfly review full` on the same head reviews the whole pull request", async () => {
    const { github } = stack;
    seen.length = 0;
    const comment = github.addComment(third, { body: "@gadfly review full", user: "maintainer" });
    await deliver(
      app.webhookUrl,
      issueCommentEvent({ pullRequest: third, comment, association: "MEMBER" }),
      WEBHOOK_SECRET,
    );
    await waitFor(() => completed(third.headSha).length === 2, 30_000);
    const board = await boardAt(third, "asked for by a comment");
    expect(board).toContain("Round 4");
    expect(board).toContain("Full review: asked for by a comment");
    expect(seen.length).toBeGreaterThanOrEqual(4);
    for (const messages of seen) expect(messages.join("\n")).not.toContain(INCREMENTAL_NOTE);
    expect(github.validationErrors).toEqual([]);
  });
});
