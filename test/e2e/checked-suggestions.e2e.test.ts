import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LensFinding } from "../../src/findings/schema.js";
import { MARKERS } from "../../src/render/markers.js";
import { deliver, type PullRequestSnapshot, pullRequestEvent } from "../fakes/fake-github/index.js";
import type { ReviewCommentRecord } from "../fakes/fake-github/types.js";
import {
  type RunningApp,
  type Stack,
  startApp,
  startStack,
  WEBHOOK_SECRET,
  waitFor,
} from "./harness.js";
import { routeReviews } from "./route-reviews.js";
import { lines, text, withLine } from "./step-fixtures.js";

/*
 * Checked suggestions against the running app and the fake GitHub. Every model proposes the same
 * fix for four findings of one pull request (so each is agreed and goes inline): one that applies
 * and parses is posted as a ```suggestion block on exactly its lines, and applying it as GitHub
 * does gives the file the model meant; one that breaks the syntax, one whose lines span two
 * hunks and one that lost its indentation are each posted as a plain ```diff with the reason.
 */

const REPO = { owner: "octo-org", repo: "suggestions" };

/** Base and head of each file: the head changes the lines the findings are about. */
const GOOD_BASE = lines(20, "g");
const GOOD_HEAD = withLine(GOOD_BASE, 8, "export const g8 = 8 / 0;");
const BROKEN_HEAD = withLine(lines(20, "k"), 8, "export const k8 = Number(input);");
const SPAN_BASE = lines(40, "s");
const SPAN_HEAD = withLine(
  withLine(SPAN_BASE, 5, "export const s5 = 50;"),
  30,
  "export const s30 = 300;",
);
const PY_BASE = [
  "def total(items):",
  "    s = 0",
  "    for item in items:",
  "        s += item",
  "    return s",
];
const PY_HEAD = withLine(PY_BASE, 4, "        s -= item");

function finding(overrides: Partial<LensFinding>): LensFinding {
  return {
    file: "src/good.ts",
    line: 8,
    endLine: 8,
    severity: "medium",
    confidence: "high",
    title: "t",
    body: "b",
    ...overrides,
  };
}

const FINDINGS: LensFinding[] = [
  finding({
    title: "Division by zero makes g8 Infinity",
    body: "Dividing by the literal zero yields Infinity; divide by the count.",
    suggestion: "export const g8 = 8 / 2;\nexport const g8half = g8 / 2;",
  }),
  finding({
    file: "src/broken.ts",
    title: "Unvalidated numeric parse of request input",
    body: "Number() of raw input accepts NaN silently.",
    suggestion: "export const k8 = Number.parseInt(input, 10;",
  }),
  finding({
    file: "src/span.ts",
    line: 5,
    endLine: 30,
    title: "Constants s5 and s30 disagree about their scale",
    body: "One is ten times its index, the other a hundred.",
    suggestion: "export const s5 = 5;\nexport const s30 = 30;",
  }),
  finding({
    file: "app/total.py",
    line: 4,
    endLine: 4,
    title: "Accumulator subtracts instead of adding",
    body: "The loop decrements the total.",
    suggestion: "s += item",
  }),
];

describe("checked suggestions, published", { timeout: 120_000 }, () => {
  let stack: Stack;
  let app: RunningApp;
  let pr: PullRequestSnapshot;
  let comments: ReviewCommentRecord[];

  const commentOn = (path: string) => {
    const comment = comments.find((entry) => entry.path === path);
    if (comment === undefined) throw new Error(`no inline comment on ${path}`);
    return comment;
  };

  beforeAll(async () => {
    stack = await startStack();
    routeReviews(stack, {
      "[suggestions]": {
        // gpt-a does not report the Python finding: 3 of the round's 4 models do.
        findings: (model, lens) =>
          lens !== "correctness"
            ? []
            : FINDINGS.filter((entry) => model !== "gpt-a" || entry.file !== "app/total.py"),
        readPath: "src/good.ts",
      },
    });
    stack.github.addRepo({ owner: REPO.owner, name: REPO.repo, ownerType: "Organization" });
    app = await startApp(stack);
    pr = stack.github.addPullRequest({
      ...REPO,
      title: "Numbers [suggestions]",
      files: [
        { path: "src/good.ts", base: text(GOOD_BASE), head: text(GOOD_HEAD) },
        { path: "src/broken.ts", base: text(lines(20, "k")), head: text(BROKEN_HEAD) },
        { path: "src/span.ts", base: text(SPAN_BASE), head: text(SPAN_HEAD) },
        { path: "app/total.py", base: text(PY_BASE), head: text(PY_HEAD) },
      ],
    });
    await deliver(app.webhookUrl, pullRequestEvent("opened", pr), WEBHOOK_SECRET);
    await waitFor(
      () => stack.github.checkRuns(pr.headSha).some((check) => check.status === "completed"),
      90_000,
    );
    const review = stack.github
      .reviews(pr)
      .find((entry) => entry.body.startsWith(MARKERS.inlineReview));
    comments = review?.comments ?? [];
  }, 110_000);

  afterAll(async () => {
    await app?.stop();
    await stack?.close();
  });

  it("posts a suggestion that applies and parses on its lines, and applying it gives the intended file", () => {
    const comment = commentOn("src/good.ts");
    expect({ line: comment.line, startLine: comment.startLine, side: comment.side }).toEqual({
      line: 8,
      startLine: null,
      side: "RIGHT",
    });
    expect(comment.body).toContain(
      "**Suggested change** to `src/good.ts:8`, proposed by 4 of 4 models.",
    );
    expect(comment.body).toContain("the file still parses (typescript)");
    const block = suggestionBlock(comment.body);
    expect(block).not.toBeNull();
    // As GitHub applies it: the comment's lines of the head file replaced by the block.
    const head = text(GOOD_HEAD).split("\n");
    const start = (comment.startLine ?? comment.line) - 1;
    head.splice(start, comment.line - start, ...(block ?? []));
    const intended = [...GOOD_HEAD];
    intended.splice(7, 1, "export const g8 = 8 / 2;", "export const g8half = g8 / 2;");
    expect(head.join("\n")).toBe(text(intended));
  });

  it("posts a syntax-breaking one as a plain diff with the reason", () => {
    const body = commentOn("src/broken.ts").body;
    expect(suggestionBlock(body)).toBeNull();
    expect(body).toContain(
      "⚠️ Not offered as a one-click suggestion: the file would no longer parse as typescript",
    );
    expect(body).toContain(
      "```diff\n-export const k8 = Number(input);\n+export const k8 = Number.parseInt(input, 10;\n```",
    );
  });

  it("posts one spanning two hunks as a plain diff with the reason", () => {
    const body = commentOn("src/span.ts").body;
    expect(suggestionBlock(body)).toBeNull();
    expect(body).toMatch(
      /Not offered as a one-click suggestion: lines 5–30 span two hunks of the diff \(\d+–\d+ and \d+–\d+\)/,
    );
    expect(body).toContain("```diff\n-export const s5 = 50;\n-export const s6 = 6;");
  });

  it("posts one with lost indentation as a plain diff with the reason", () => {
    const body = commentOn("app/total.py").body;
    expect(suggestionBlock(body)).toBeNull();
    expect(body).toContain(
      "Not offered as a one-click suggestion: its first line is indented by nothing where line 4 is indented by 8 spaces.",
    );
    expect(body).toContain("```diff\n-        s -= item\n+s += item\n```");
    // Its hand-off counts agreement out of the round's models, not the cluster's 3.
    expect(body).toContain("· models agreeing: 3/4");
    expect(body).toContain("proposed by 3 of 3 models");
    expect(stack.github.validationErrors).toEqual([]);
  });
});

/** The lines of a comment's ```suggestion block (any fence length), or null when it has none. */
function suggestionBlock(body: string): string[] | null {
  const lines = body.split("\n");
  const open = lines.findIndex((line) => /^`{3,}suggestion$/.test(line));
  if (open === -1) return null;
  const fence = /^`+/.exec(lines[open] ?? "")?.[0] ?? "```";
  const close = lines.findIndex((line, at) => at > open && line === fence);
  return lines.slice(open + 1, close);
}
