import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LensFinding } from "../../src/findings/schema.js";
import { deliver, issueCommentEvent, pullRequestEvent } from "../fakes/fake-github/index.js";
import {
  OPENAI_KEY,
  type RunningApp,
  reviewerScript,
  type Stack,
  scriptAll,
  startApp,
  startStack,
  WEBHOOK_SECRET,
  waitFor,
} from "./harness.js";
import { readAppStore } from "./read-app-store.js";

const base = Array.from(
  { length: 30 },
  (_, index) => `export const value${index + 1} = ${index + 1};`,
);
const head = [...base];
head[14] = 'export const query = (name) => "SELECT * FROM users WHERE name = \'" + name + "\'";';

const injection = (title: string, body: string): LensFinding => ({
  file: "src/db.js",
  line: 15,
  endLine: 15,
  severity: "high",
  confidence: "high",
  title,
  body,
});
const unchangedLine: LensFinding = {
  file: "src/db.js",
  line: 28,
  endLine: 28,
  severity: "low",
  confidence: "medium",
  title: "Magic number `value28` should be a named constant",
  body: "`value28` is a bare number with no explanation.",
};

function findings(model: string, lens: string): LensFinding[] {
  if (lens === "security" && model !== "gpt-b") {
    const titles: Record<string, string> = {
      "glm-5.2:cloud": "SQL injection: `query` concatenates `name` into the SQL text",
      "kimi-k2.6:cloud":
        "User-controlled `name` is concatenated into a SQL string in `query` (SQL injection)",
      "gpt-a": "SQL injection via string concatenation of `name` in `query`",
    };
    return [
      injection(titles[model] ?? "", "Use a parameterised query instead of concatenating `name`."),
    ];
  }
  if (lens === "maintainability" && model === "gpt-b") return [unchangedLine];
  return [];
}

describe("the app, end to end against a fake GitHub and fake models", () => {
  let stack: Stack;
  let app: RunningApp;
  let firstPr: ReturnType<Stack["github"]["addPullRequest"]>;

  beforeAll(async () => {
    stack = await startStack();
    scriptAll(stack, reviewerScript(findings, "src/db.js"));
    app = await startApp(stack);
  }, 60_000);

  afterAll(async () => {
    await app?.stop();
    await stack?.close();
  });

  it("reviews an opened PR: one board, one consensus, one inline review on hunk lines, a neutral check", async () => {
    const { github } = stack;
    github.addRepo({
      owner: "octo-org",
      name: "api",
      files: { "src/db.js": `${base.join("\n")}\n` },
    });
    const pr = github.addPullRequest({
      title: "Add a user query",
      files: [{ path: "src/db.js", base: `${base.join("\n")}\n`, head: `${head.join("\n")}\n` }],
    });
    firstPr = pr;
    const response = await deliver(app.webhookUrl, pullRequestEvent("opened", pr), WEBHOOK_SECRET);
    expect(response.status).toBeLessThan(300);

    await waitFor(
      () => github.checkRuns(pr.headSha).some((check) => check.status === "completed"),
      30_000,
    );
    const check = github.checkRuns(pr.headSha);
    expect(check).toHaveLength(1);
    expect(check[0]?.conclusion).toBe("neutral");
    expect(check[0]?.output?.title).toBe("Significant issues");

    const comments = github.comments(pr);
    const boards = comments.filter((comment) =>
      comment.body.startsWith("<!-- gadfly-status-board -->"),
    );
    const consensus = comments.filter((comment) =>
      comment.body.startsWith("<!-- gadfly-consensus -->"),
    );
    expect(boards).toHaveLength(1);
    expect(consensus).toHaveLength(1);
    expect(boards[0]?.body).toContain("4/4 reviewers finished");
    expect(consensus[0]?.body).toContain("consensus across 4 models");
    expect(consensus[0]?.body).toContain(
      "**Verdict: Significant issues** · 2 findings (1 with multi-model agreement)",
    );
    // The row: severity word, the numbered title linking its inline comment, the place linking
    // the code at the head SHA, the agreement.
    expect(consensus[0]?.body).toMatch(
      /🔴 high \| \*\*1\.\*\* .*SQL.*#discussion_r\d+\) \| \[`src\/db.js:15`\]\([^)]*\/blob\/[0-9a-f]{40}\/src\/db\.js#L15\) \| 3\/4 \| security \|/,
    );

    const reviews = github.reviews(pr);
    expect(reviews).toHaveLength(1);
    expect(reviews[0]?.state).toBe("COMMENTED");
    expect(reviews[0]?.comments.map((comment) => [comment.path, comment.line])).toEqual([
      ["src/db.js", 15],
    ]);
    expect(reviews[0]?.comments[0]?.body).toContain("_security · flagged by 3 models_");
    // One model's low finding is not inline by default: the consensus comment has it, and the
    // review says so in one line.
    expect(consensus[0]?.body).toContain("value28");
    expect(reviews[0]?.body).not.toContain("value28");
    expect(reviews[0]?.body).toContain(
      "1 single-model finding below high severity is in the consensus comment only.",
    );

    // Every lens's conversation is kept in the store, the provider key redacted.
    const rows = readAppStore<{ messages: string }>(
      stack.dataDir,
      "SELECT model, lens, messages FROM transcripts",
    );
    expect(rows).toHaveLength(20);
    expect(rows.every((row) => (JSON.parse(row.messages) as unknown[]).length >= 4)).toBe(true);
    expect(rows.some((row) => row.messages.includes(OPENAI_KEY))).toBe(false);
    // The opening the 20 conversations share is stored once, redacted as well.
    const texts = readAppStore<{ text: string }>(
      stack.dataDir,
      "SELECT text FROM transcript_texts",
    );
    expect(texts.length).toBeGreaterThan(0);
    expect(texts.length).toBeLessThan(rows.length);
    expect(texts.some((row) => row.text.includes(OPENAI_KEY))).toBe(false);

    expect(github.validationErrors).toEqual([]);
    expect(app.output()).not.toContain(OPENAI_KEY);
  });

  it("answers @gadfly review from a maintainer with 👀 and edits the same comments in place", async () => {
    const { github } = stack;
    const pr = github.pullRequest(firstPr);
    const before = github.comments(pr).length;
    // The permission API decides who may trigger, not the comment's association.
    github.addCollaborator("maintainer", "write", { owner: "octo-org", repo: "api" });
    const comment = github.addComment(pr, { body: "@gadfly review", user: "maintainer" });
    await deliver(
      app.webhookUrl,
      issueCommentEvent({ pullRequest: pr, comment, association: "MEMBER" }),
      WEBHOOK_SECRET,
    );
    await waitFor(() =>
      github.reactions(comment.id).some((reaction) => reaction.content === "eyes"),
    );
    await waitFor(
      () =>
        github.reviews(pr).length === 2 ||
        github.checkRuns(pr.headSha).filter((check) => check.status === "completed").length === 2,
      30_000,
    );
    await waitFor(
      () =>
        github.checkRuns(pr.headSha).filter((check) => check.status === "completed").length === 2,
      30_000,
    );
    // Still one board and one consensus comment (edited), plus the trigger comment.
    expect(github.comments(pr).length).toBe(before + 1);
    const consensus = github
      .comments(pr)
      .find((entry) => entry.body.startsWith("<!-- gadfly-consensus -->"));
    expect(consensus?.body).toContain("Since");
    // The SQL injection was posted inline last round and is still open: not posted again. The
    // one other finding is a single model's low one, in the consensus comment only: with nothing
    // to post or list inline, the round posts no review.
    const reviews = github.reviews(pr);
    expect(reviews).toHaveLength(1);
    expect(reviews.flatMap((review) => review.comments)).toHaveLength(1);
    expect(github.validationErrors).toEqual([]);
  });

  it("ignores a comment from a reader, a bot, and a bad signature", async () => {
    const { github } = stack;
    const pr = github.pullRequest(firstPr);
    const reviewsBefore = github.reviews(pr).length;
    github.addCollaborator("reader", "read");
    const fromReader = github.addComment(pr, { body: "@gadfly review", user: "reader" });
    await deliver(
      app.webhookUrl,
      // An org MEMBER who may only read: the association alone grants nothing.
      issueCommentEvent({ pullRequest: pr, comment: fromReader, association: "MEMBER" }),
      WEBHOOK_SECRET,
    );
    const badSignature = await deliver(
      app.webhookUrl,
      pullRequestEvent("synchronize", pr),
      "not-the-secret",
    );
    expect(badSignature.status).toBeGreaterThanOrEqual(400);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(github.reactions(fromReader.id)).toEqual([]);
    expect(github.reviews(pr).length).toBe(reviewsBefore);
  });
});
