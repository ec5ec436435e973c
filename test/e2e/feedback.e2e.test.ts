import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LensFinding } from "../../src/findings/schema.js";
import { MARKERS } from "../../src/render/markers.js";
import {
  deliver,
  type PullRequestSnapshot,
  pullRequestEvent,
  pullRequestReviewCommentEvent,
  pullRequestReviewThreadEvent,
  type ReviewCommentRecord,
} from "../fakes/fake-github/index.js";
import { quietOctokit } from "../fakes/fake-github/quiet-octokit.js";
import { appLogs } from "./app-logs.js";
import {
  type RunningApp,
  type Stack,
  startApp,
  startStack,
  WEBHOOK_SECRET,
  waitFor,
} from "./harness.js";
import { readAppStore } from "./read-app-store.js";
import { routeReviews } from "./route-reviews.js";

const CONSENSUS = MARKERS.consensus;
const REPO = { owner: "octo-org", repo: "learning" };

const lines = Array.from(
  { length: 30 },
  (_, index) => `export const setting${index + 1} = ${index + 1};`,
);
const withLine = (base: readonly string[], line: number, text: string) =>
  base.map((entry, index) => (index === line - 1 ? text : entry));
const text = (content: readonly string[]) => `${content.join("\n")}\n`;
const head = withLine(
  withLine(lines, 10, "export const isAdmin = (token) => token == process.env.ADMIN_TOKEN;"),
  20,
  "export const retries = Number(process.env.RETRIES);",
);

const finding = (file: string, line: number, severity: LensFinding["severity"], title: string) => ({
  file,
  line,
  endLine: line,
  severity,
  confidence: "high" as const,
  title,
  body: `${title}: see line ${line}.`,
});
const TIMING = finding(
  "src/settings.js",
  10,
  "high",
  "Admin token compared with `==` leaks timing and coerces types",
);
const NAN = finding(
  "src/settings.js",
  20,
  "medium",
  "`Number(process.env.RETRIES)` is NaN when the variable is unset",
);
// PR 2: the same complaint, reworded, in a sibling file; and an unrelated one.
const TIMING_AGAIN = finding(
  "src/config.js",
  10,
  "high",
  "Admin token compared with `==` leaks timing",
);
const NAN_AGAIN = finding(
  "src/config.js",
  20,
  "medium",
  "`Number(process.env.RETRIES)` is NaN when the variable is unset",
);

interface FeedbackRow {
  pull_number: number;
  fingerprint: string;
  kind: string;
  actor: string;
  reason: string | null;
}

/** Strips the zero-width joiner our comments put after `@` so nobody is notified. */
const plain = (body: string) => body.replaceAll("\u200D", "");

describe("feedback on findings", { timeout: 60_000 }, () => {
  let stack: Stack;
  let app: RunningApp;
  let pr: PullRequestSnapshot;

  const consensusOf = (pull: PullRequestSnapshot) =>
    plain(
      stack.github
        .comments(pull)
        .find(
          (comment) => comment.user.login === "gadfly[bot]" && comment.body.startsWith(CONSENSUS),
        )?.body ?? "",
    );
  const completed = (sha: string) =>
    stack.github.checkRuns(sha).filter((check) => check.status === "completed");
  const topLevel = (pull: PullRequestSnapshot): ReviewCommentRecord[] =>
    stack.github
      .reviews(pull)
      .flatMap((review) => review.comments)
      .filter((comment) => comment.inReplyToId === undefined);
  const feedback = () =>
    readAppStore<FeedbackRow>(
      stack.dataDir,
      "SELECT pull_number, fingerprint, kind, actor, reason FROM finding_feedback ORDER BY id",
    );
  const fingerprintOf = (commentId: number) =>
    readAppStore<{ fingerprint: string }>(
      stack.dataDir,
      "SELECT fingerprint FROM posted_inline WHERE comment_id = ?",
      commentId,
    )[0]?.fingerprint;
  /** `login` replies `body` on the thread of `root`, and GitHub tells the app. */
  const reply = async (login: string, root: ReviewCommentRecord, body: string) => {
    const as = quietOctokit(stack.github.apiUrl, stack.github.createUserToken(login));
    const { data } = await as.rest.pulls.createReplyForReviewComment({
      ...REPO,
      pull_number: pr.number,
      comment_id: root.id,
      body,
    });
    const event = pullRequestReviewCommentEvent({
      pullRequest: pr,
      comment: data as unknown as Record<string, unknown>,
      sender: stack.github.user(login),
    });
    const delivered = await deliver(app.webhookUrl, event, WEBHOOK_SECRET);
    expect(delivered.status).toBe(200);
    return { id: data.id, delivery: event.id };
  };
  const outcome = async (deliveryId: string) => {
    const line = () =>
      appLogs(app.output()).find(
        (entry) => entry.delivery === deliveryId && entry.msg === "no round",
      );
    await waitFor(() => line() !== undefined, 10_000);
    return line()?.reason;
  };

  beforeAll(async () => {
    stack = await startStack();
    routeReviews(stack, {
      "[feedback]": {
        findings: (_model, lens) => (lens === "security" ? [TIMING, NAN] : []),
      },
      "[feedback-2]": {
        findings: (_model, lens) => (lens === "security" ? [TIMING_AGAIN, NAN_AGAIN] : []),
      },
    });
    stack.github.addRepo({
      ...{ owner: REPO.owner, name: REPO.repo },
      ownerType: "Organization",
      files: { ".github/gadfly.yml": "lenses: [security]\nlearn: repo\n" },
    });
    stack.github.addCollaborator("maintainer", "write", REPO);
    stack.github.addCollaborator("reader", "read", REPO);
    app = await startApp(stack);
  }, 60_000);

  afterAll(async () => {
    await app?.stop();
    await stack?.close();
  });

  let timingComment: ReviewCommentRecord;
  let nanComment: ReviewCommentRecord;

  it("records a maintainer's 👎 and `@gadfly dismiss`, and ignores a reader's dismissal", async () => {
    const { github } = stack;
    pr = github.addPullRequest({
      ...REPO,
      title: "Settings [feedback]",
      files: [{ path: "src/settings.js", base: text(lines), head: text(head) }],
    });
    await deliver(app.webhookUrl, pullRequestEvent("opened", pr), WEBHOOK_SECRET);
    await waitFor(() => completed(pr.headSha).length === 1, 30_000);
    await waitFor(() => topLevel(pr).length === 2);
    timingComment = topLevel(pr).find((comment) => comment.line === 10) as ReviewCommentRecord;
    nanComment = topLevel(pr).find((comment) => comment.line === 20) as ReviewCommentRecord;
    const timing = fingerprintOf(timingComment.id);
    const nan = fingerprintOf(nanComment.id);
    expect(timing).toBeDefined();
    expect(nan).toBeDefined();

    // 👎 from the maintainer on the NaN finding (GitHub sends no webhook for it), and 👍 from a
    // reader, which does not count.
    const asMaintainer = quietOctokit(github.apiUrl, github.createUserToken("maintainer"));
    const asReader = quietOctokit(github.apiUrl, github.createUserToken("reader"));
    await asMaintainer.rest.reactions.createForPullRequestReviewComment({
      ...REPO,
      comment_id: nanComment.id,
      content: "-1",
    });
    await asReader.rest.reactions.createForPullRequestReviewComment({
      ...REPO,
      comment_id: nanComment.id,
      content: "+1",
    });

    const readers = await reply("reader", nanComment, "@gadfly dismiss I don't like it");
    expect(await outcome(readers.delivery)).toBe("feedback ignored: reader has read permission");
    const maintainers = await reply(
      "maintainer",
      timingComment,
      "@gadfly dismiss the token is not secret here",
    );
    expect(await outcome(maintainers.delivery)).toBe("feedback recorded: dismiss by maintainer");
    // Acknowledged with 👍 on the reply; the reader's reply got nothing.
    expect(github.reactions(maintainers.id).map((reaction) => reaction.content)).toEqual(["+1"]);
    expect(github.reactions(readers.id)).toEqual([]);

    expect(feedback()).toEqual([
      {
        pull_number: pr.number,
        fingerprint: nan,
        kind: "thumbs_down",
        actor: "maintainer",
        reason: null,
      },
      {
        pull_number: pr.number,
        fingerprint: timing,
        kind: "dismiss",
        actor: "maintainer",
        reason: "the token is not secret here",
      },
    ]);
    const metrics = await (await fetch(`${app.url}/metrics`)).text();
    expect(metrics).toMatch(/gadfly_findings_total\{model="gpt-a",outcome="dismissed"\} 1\b/);
    expect(metrics).toMatch(/gadfly_findings_total\{model="gpt-a",outcome="thumbs_down"\} 1\b/);
    expect(metrics).toMatch(/gadfly_findings_total\{model="gpt-a",outcome="reported"\} 2\b/);
    expect(github.validationErrors).toEqual([]);
  });

  it("round 2 does not post the dismissed finding again and says who dismissed it", async () => {
    const { github } = stack;
    const pushed = github.pushCommit(pr, [
      {
        path: "src/settings.js",
        content: text(withLine(head, 25, "export const setting25 = 26;")),
      },
    ]);
    await deliver(
      app.webhookUrl,
      pullRequestEvent("synchronize", pushed, { before: pr.headSha }),
      WEBHOOK_SECRET,
    );
    await waitFor(() => completed(pushed.headSha).length === 1, 30_000);
    await waitFor(() => consensusOf(pushed).includes(pushed.headSha));
    pr = pushed;

    const body = consensusOf(pushed);
    const timingRow = body.split("\n").find((line) => line.includes("Admin token compared")) ?? "";
    expect(timingRow).toContain("dismissed by @maintainer");
    // The reader's dismissal did not count.
    const nanRow = body.split("\n").find((line) => line.includes("is NaN when")) ?? "";
    expect(nanRow).not.toContain("dismissed");
    expect(
      topLevel(pushed)
        .map((comment) => comment.line)
        .sort(),
    ).toEqual([10, 20]);
  });

  it("records a thread a maintainer resolved without a fix, not one our bot resolved", async () => {
    const { github } = stack;
    const thread = (login: string) =>
      pullRequestReviewThreadEvent({
        pullRequest: pr,
        nodeId: "PRRT_fake",
        comments: [github.reviewCommentJson(nanComment.id)],
        sender: github.user(login),
      });
    const ours = thread("gadfly[bot]");
    await deliver(app.webhookUrl, ours, WEBHOOK_SECRET);
    expect(await outcome(ours.id)).toBe("our own resolution");
    const byReader = thread("reader");
    await deliver(app.webhookUrl, byReader, WEBHOOK_SECRET);
    expect(await outcome(byReader.id)).toBe("feedback ignored: reader has read permission");
    const byMaintainer = thread("maintainer");
    await deliver(app.webhookUrl, byMaintainer, WEBHOOK_SECRET);
    expect(await outcome(byMaintainer.id)).toBe(
      "feedback recorded: resolved_without_fix by maintainer",
    );
    expect(feedback().map((row) => [row.kind, row.actor])).toEqual([
      ["thumbs_down", "maintainer"],
      ["dismiss", "maintainer"],
      ["resolved_without_fix", "maintainer"],
    ]);
  });

  it("cannot be baited: a high, multi-model finding like one dismissed in another PR is still shown", async () => {
    const { github } = stack;
    const second = github.addPullRequest({
      ...REPO,
      title: "Config [feedback-2]",
      files: [{ path: "src/config.js", base: text(lines), head: text(head) }],
    });
    await deliver(app.webhookUrl, pullRequestEvent("opened", second), WEBHOOK_SECRET);
    await waitFor(() => completed(second.headSha).length === 1, 30_000);
    await waitFor(() => consensusOf(second) !== "");

    // The dismissal was of a finding in another file: a sibling file and a like title no longer
    // hold anything back, and a high finding every model reports never is (learn: repo).
    const body = consensusOf(second);
    expect(body).not.toContain("held back by earlier dismissals");
    expect(body).toContain("Admin token compared with `==` leaks timing");
    expect(body).toContain("is NaN when the variable is unset");
    await waitFor(() => topLevel(second).length === 2);
    expect(topLevel(second).map((comment) => comment.line)).toEqual([10, 20]);
  });

  it("`@gadfly undismiss` reverses: the next round shows the finding as open again", async () => {
    const { github } = stack;
    const undone = await reply("maintainer", timingComment, "@gadfly undismiss");
    expect(await outcome(undone.delivery)).toBe("feedback recorded: undismiss by maintainer");
    const pushed = github.pushCommit(pr, [
      {
        path: "src/settings.js",
        content: text(withLine(head, 26, "export const setting26 = 27;")),
      },
    ]);
    await deliver(
      app.webhookUrl,
      pullRequestEvent("synchronize", pushed, { before: pr.headSha }),
      WEBHOOK_SECRET,
    );
    await waitFor(() => completed(pushed.headSha).length === 1, 30_000);
    await waitFor(() => consensusOf(pushed).includes(pushed.headSha));
    const body = consensusOf(pushed);
    expect(body).toContain("Admin token compared");
    expect(body).not.toContain("dismissed by");
  });
});
