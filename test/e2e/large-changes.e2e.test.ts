import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LensFinding } from "../../src/findings/schema.js";
import { MARKERS } from "../../src/render/markers.js";
import {
  deliver,
  issueCommentEvent,
  type PullRequestSnapshot,
  pullRequestEvent,
} from "../fakes/fake-github/index.js";
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

const BOARD = MARKERS.statusBoard;
const CONSENSUS = MARKERS.consensus;
const MODEL_MARKER = "<!-- gadfly-model:";
const GITHUB_BODY_LIMIT = 65_536;
const WIDE_FILES = 130;

const modulePath = (index: number) => `src/module-${String(index).padStart(3, "0")}.js`;
const at = (file: string, line: number, title: string): LensFinding => ({
  file,
  line,
  endLine: line,
  severity: "medium",
  confidence: "high",
  title,
  body: `${title}.`,
});
const userPrompt = (request: FakeModelRequest) =>
  request.messages.find((message) => message.role === "user")?.content ?? "";
/** Lens prose far beyond what one comment holds once four… or two models add theirs up. */
const hugeProse = (model: string) =>
  Array.from(
    { length: 900 },
    (_, index) => `${model} paragraph ${index}: the retry loop re-reads the whole config file.`,
  ).join("\n");

describe("large and unusual changes", { timeout: 30_000 }, () => {
  let stack: Stack;
  let app: RunningApp;
  let verbose = true;
  const prompts: string[] = [];

  const own = (pr: PullRequestSnapshot, prefix: string) =>
    stack.github
      .comments(pr)
      .filter((comment) => comment.user.login === "gadfly[bot]" && comment.body.startsWith(prefix));
  const completed = (sha: string) =>
    stack.github.checkRuns(sha).filter((check) => check.status === "completed");
  const roundEnded = async (pr: PullRequestSnapshot, count = 1) => {
    await waitFor(() => completed(pr.headSha).length === count, 25_000);
    await waitFor(() => /reviewers finished/.test(own(pr, BOARD)[0]?.body ?? ""));
  };

  beforeAll(async () => {
    stack = await startStack();
    routeReviews(stack, {
      "[wide]": {
        intercept: (request) => {
          prompts.push(userPrompt(request));
          return undefined;
        },
        // Findings on the last file: it is on the second page of the files list.
        findings: (_model, lens) =>
          lens === "security"
            ? [at(modulePath(WIDE_FILES), 1, "Module 130 exports a mutable flag")]
            : [],
      },
      "[mixed]": {
        intercept: (request) => {
          prompts.push(userPrompt(request));
          return undefined;
        },
        findings: (_model, lens) =>
          lens === "security"
            ? [at("src/new-name.js", 5, "The renamed helper trusts its input")]
            : [],
      },
      "[verbose]": {
        prose: (model) => (verbose ? hugeProse(model) : `${model} found nothing to add.`),
      },
    });
    for (const name of ["wide", "mixed"]) {
      stack.github.addRepo({
        owner: "octo-org",
        name,
        ownerType: "Organization",
        files: { ".github/gadfly.yml": "lenses: [security]\n" },
      });
    }
    stack.github.addRepo({
      owner: "octo-org",
      name: "verbose",
      ownerType: "Organization",
      files: { ".github/gadfly.yml": "models: [gpt-a, gpt-b]\nlenses: [security]\n" },
    });
    // The permission API decides who may trigger, not the comment's association.
    stack.github.addCollaborator("maintainer", "admin", { owner: "octo-org", repo: "verbose" });
    app = await startApp(stack);
  }, 60_000);

  afterAll(async () => {
    await app?.stop();
    await stack?.close();
  });

  it(`reviews a ${WIDE_FILES}-file pull request whose files list spans two pages`, async () => {
    const { github } = stack;
    const files = Array.from({ length: WIDE_FILES }, (_, index) => ({
      path: modulePath(index + 1),
      base: `export let flag${index + 1} = false;\n`,
      head: `export let flag${index + 1} = true;\n`,
    }));
    const pr = github.addPullRequest({
      owner: "octo-org",
      repo: "wide",
      title: "Flip every flag [wide]",
      files,
    });
    await deliver(app.webhookUrl, pullRequestEvent("opened", pr), WEBHOOK_SECRET);
    await roundEnded(pr);

    const pages = github
      .requests({ method: "GET", path: `/repos/octo-org/wide/pulls/${pr.number}/files` })
      .map((request) => request.query.page ?? "1");
    expect(new Set(pages)).toEqual(new Set(["1", "2"]));
    const prompt = prompts.find((entry) => entry.includes("Flip every flag")) ?? "";
    expect(prompt).toContain(`Changed files (${WIDE_FILES})`);
    for (const file of files) expect(prompt).toContain(file.path);
    expect(own(pr, BOARD)[0]?.body).toContain("Every changed file was reviewed.");
    const inline = github.reviews(pr).flatMap((review) => review.comments);
    expect(inline.map((comment) => [comment.path, comment.line])).toEqual([
      [modulePath(WIDE_FILES), 1],
    ]);
    expect(github.validationErrors).toEqual([]);
  });

  it("lists a binary file as not reviewed, reviews a rename under its new path, and survives a deletion", async () => {
    const { github } = stack;
    const lines = Array.from(
      { length: 10 },
      (_, index) => `export const step${index + 1} = ${index};`,
    );
    const renamed = lines.map((line, index) =>
      index === 4 ? "export const step5 = eval(input);" : line,
    );
    const pr = github.addPullRequest({
      owner: "octo-org",
      repo: "mixed",
      title: "Rename and clean up [mixed]",
      files: [
        { path: "assets/logo.png", head: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]) },
        {
          path: "src/new-name.js",
          previousPath: "src/old-name.js",
          base: `${lines.join("\n")}\n`,
          head: `${renamed.join("\n")}\n`,
        },
        { path: "src/gone.js", base: "export const unused = 1;\n" },
      ],
    });
    await deliver(app.webhookUrl, pullRequestEvent("opened", pr), WEBHOOK_SECRET);
    await roundEnded(pr);

    const board = own(pr, BOARD)[0]?.body ?? "";
    expect(board).toMatch(/\*\*Not reviewed:\*\* 1 file/);
    expect(board).toMatch(/- `assets\/logo\.png` — binary/);
    const prompt = prompts.find((entry) => entry.includes("Rename and clean up")) ?? "";
    const changed = prompt.slice(prompt.indexOf("Changed files"), prompt.indexOf("Diff ("));
    expect(changed.length).toBeGreaterThan(0);
    // Listed once, as a rename to its new path (the path the review and its comments use).
    expect(changed).toContain("renamed src/old-name.js → src/new-name.js");
    expect(changed.match(/old-name\.js/g)).toHaveLength(1);
    expect(prompt).toContain("eval(input)");
    expect(prompt).toContain("src/gone.js");
    const inline = github.reviews(pr).flatMap((review) => review.comments);
    expect(inline.map((comment) => [comment.path, comment.line])).toEqual([["src/new-name.js", 5]]);
    expect(completed(pr.headSha)[0]?.conclusion).toBe("neutral");
    expect(github.validationErrors).toEqual([]);
  });

  let verbosePr: PullRequestSnapshot;

  it("splits a consensus over 65,536 characters into one comment per model", async () => {
    const { github } = stack;
    verbosePr = github.addPullRequest({
      owner: "octo-org",
      repo: "verbose",
      title: "Tune retries [verbose]",
      files: [
        {
          path: "src/retry.js",
          base: "export const tries = 1;\n",
          head: "export const tries = 3;\n",
        },
      ],
    });
    await deliver(app.webhookUrl, pullRequestEvent("opened", verbosePr), WEBHOOK_SECRET);
    await roundEnded(verbosePr);
    await waitFor(() => own(verbosePr, CONSENSUS).length === 1);

    const overflow = own(verbosePr, MODEL_MARKER);
    expect(overflow.map((comment) => comment.body.split("\n", 1)[0]).sort()).toEqual([
      "<!-- gadfly-model:gpt-a -->",
      "<!-- gadfly-model:gpt-b -->",
    ]);
    expect(
      overflow.find((comment) => comment.body.startsWith("<!-- gadfly-model:gpt-a"))?.body,
    ).toContain("gpt-a paragraph 0:");
    const consensus = own(verbosePr, CONSENSUS)[0]?.body ?? "";
    expect(consensus).not.toContain("paragraph 0:");
    for (const comment of github.comments(verbosePr)) {
      expect(comment.body.length).toBeLessThanOrEqual(GITHUB_BODY_LIMIT);
    }
    // Every body the app sent, creates and edits alike, fit.
    const sent = github
      .requests()
      .filter((request) => request.method === "POST" || request.method === "PATCH")
      .map((request) => (request.body as { body?: unknown } | undefined)?.body)
      .filter((body): body is string => typeof body === "string");
    expect(Math.max(...sent.map((body) => body.length))).toBeLessThanOrEqual(GITHUB_BODY_LIMIT);
    expect(github.validationErrors).toEqual([]);
  });

  it("deletes the per-model comments when the next round fits in one", async () => {
    const { github } = stack;
    const consensusId = own(verbosePr, CONSENSUS)[0]?.id;
    verbose = false;
    const comment = github.addComment(verbosePr, { body: "@gadfly review", user: "maintainer" });
    await deliver(
      app.webhookUrl,
      issueCommentEvent({ pullRequest: verbosePr, comment, association: "OWNER" }),
      WEBHOOK_SECRET,
    );
    await roundEnded(verbosePr, 2);
    await waitFor(() => own(verbosePr, MODEL_MARKER).length === 0, 10_000);

    const consensus = own(verbosePr, CONSENSUS);
    expect(consensus.map((entry) => entry.id)).toEqual([consensusId]);
    expect(consensus[0]?.body).toContain("gpt-a found nothing to add.");
    expect(
      github.requests({ method: "DELETE", path: "/repos/octo-org/verbose/issues/comments/*" }),
    ).toHaveLength(2);
    expect(github.validationErrors).toEqual([]);
  });
});
