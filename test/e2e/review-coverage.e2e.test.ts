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

const REPO = { owner: "octo-org", repo: "coverage" };

const finding = (file: string, line: number, title: string): LensFinding => ({
  file,
  line,
  endLine: line,
  severity: "high",
  confidence: "high",
  title,
  body: `${title}: see line ${line}.`,
});
/** What the reviewers were shown: every message of the request, as one text. */
const shown = (request: FakeModelRequest) =>
  request.messages.map((message) => message.content ?? "").join("\n");
/** A finding only for a reviewer whose prompt showed `code`: proof a model saw it. */
const whenShown =
  (code: string, found: LensFinding) => (_model: string, lens: string, request: FakeModelRequest) =>
    lens === "security" && shown(request).includes(code) ? [found] : [];

const INJECTION = finding("src/admin.ts", 3, "User input reaches execSync: command injection");
const HOOK = finding("build/setup.js", 2, "An environment variable is run as a shell command");
const ZERO = finding("src/zero.ts", 11, "Line added in a row GitHub listed as 0/0");

const lockfile = (host: string, extra: string) =>
  `${JSON.stringify(
    {
      name: "app",
      lockfileVersion: 3,
      packages: {
        "node_modules/left-pad": {
          version: "1.3.0",
          resolved: `https://${host}/left-pad/-/left-pad-1.3.0.tgz`,
          integrity: "sha512-abc",
          ...(extra === "" ? {} : { hasInstallScript: true }),
        },
      },
    },
    null,
    2,
  )}\n`;
const lines = (count: number, tag: string) =>
  `${Array.from({ length: count }, (_, index) => `export const ${tag}${index + 1} = ${index + 1};`).join("\n")}\n`;

describe("what a round reviews, and says it did not", { timeout: 60_000 }, () => {
  let stack: Stack;
  let app: RunningApp;

  const consensusOf = (pr: PullRequestSnapshot) =>
    stack.github
      .comments(pr)
      .find(
        (comment) =>
          comment.user.login === "gadfly[bot]" && comment.body.startsWith(MARKERS.consensus),
      )?.body ?? "";
  const boardOf = (pr: PullRequestSnapshot) =>
    stack.github
      .comments(pr)
      .find(
        (comment) =>
          comment.user.login === "gadfly[bot]" && comment.body.startsWith(MARKERS.statusBoard),
      )?.body ?? "";
  const completed = (sha: string) =>
    stack.github.checkRuns(sha).filter((check) => check.status === "completed");
  const review = async (pr: PullRequestSnapshot) => {
    await deliver(app.webhookUrl, pullRequestEvent("opened", pr), WEBHOOK_SECRET);
    await waitFor(() => completed(pr.headSha).length === 1, 40_000);
    await waitFor(() => consensusOf(pr) !== "");
    return { consensus: consensusOf(pr), check: completed(pr.headSha)[0] };
  };

  beforeAll(async () => {
    stack = await startStack();
    routeReviews(stack, {
      "[renamed-out]": {
        findings: whenShown('execSync("convert " + request.query.file)', INJECTION),
      },
      "[unreviewed]": { findings: whenShown("execSync(process.env.HOOK)", HOOK) },
      "[patchless]": { findings: whenShown("zero11 = 11", ZERO) },
    });
    stack.github.addRepo({
      owner: REPO.owner,
      name: REPO.repo,
      ownerType: "Organization",
      files: { ".github/gadfly.yml": 'lenses: [security]\nignore: ["docs/**"]\n' },
    });
    app = await startApp(stack);
  }, 60_000);

  afterAll(async () => {
    await app?.stop();
    await stack?.close();
  });

  it("reviews a file renamed out of an ignored path, by the path it has at the head", async () => {
    const pr = stack.github.addPullRequest({
      ...REPO,
      title: "Move the example [renamed-out]",
      files: [
        {
          path: "src/admin.ts",
          previousPath: "docs/example.ts",
          base: 'import { execSync } from "node:child_process";\n// An example.\nexport {};\n',
          head: 'import { execSync } from "node:child_process";\n// An example.\nexport const run = (request) => execSync("convert " + request.query.file);\n',
        },
        { path: "docs/guide.md", base: "# Guide\n", head: "# Guide\n\nMore.\n" },
      ],
    });
    const { consensus, check } = await review(pr);
    expect(consensus).toContain(INJECTION.title);
    // Only the file still under docs/ is ignored: named, but the maintainers' own ignore glob
    // leaves no gap, so the review is not partial.
    expect(check?.output.title).toBe("Significant issues");
    expect(consensus).toContain("- `docs/guide.md` — ignored by configuration");
    expect(consensus).not.toContain("- `src/admin.ts` —");
    expect(boardOf(pr)).not.toContain("`src/admin.ts` — ignored");
  });

  it("reviews a build/ file, and names a NUL-byte source file and a hostile lockfile in the consensus and the check", async () => {
    const pr = stack.github.addPullRequest({
      ...REPO,
      title: "Setup hook [unreviewed]",
      files: [
        {
          path: "build/setup.js",
          head: 'const { execSync } = require("node:child_process");\nexecSync(process.env.HOOK);\n',
        },
        {
          path: "src/util.js",
          base: "export const a = 1;\n",
          head: "export const a = 1;\n// \u0000\nexport const run = (x) => eval(x);\n",
        },
        {
          path: "package-lock.json",
          base: lockfile("registry.npmjs.org", ""),
          head: lockfile("evil.example.com", "script"),
        },
      ],
    });
    const { consensus, check } = await review(pr);
    // A folder named build/ is no evidence of a generated file: a model saw it and reported.
    expect(consensus).toContain(HOOK.title);
    expect(consensus).toContain("**Not reviewed:** 2 files, so this review is partial.");
    expect(consensus).toContain(
      "- `src/util.js` — a source file git treats as binary (NUL byte): no text diff",
    );
    expect(consensus).toContain("- `package-lock.json` — lockfile");
    expect(consensus).toMatch(
      /`package-lock\.json`:\d+ — fetches from a new host `evil\.example\.com`/,
    );
    expect(consensus).toMatch(
      /`package-lock\.json`:\d+ — adds an install script \(`node_modules\/left-pad`\)/,
    );
    expect(check?.output.title).toBe("Significant issues (partial: 2 files not reviewed)");
    expect(check?.output.summary).toContain("- `src/util.js` —");
    expect(check?.output.summary).toContain("evil.example.com");
  });

  it("reads rows without a patch from the .diff, and one that does not parse costs only its file", async () => {
    const pr = stack.github.addPullRequest({
      ...REPO,
      title: "Patchless rows [patchless]",
      files: [
        { path: "src/empty.ts", head: "" },
        { path: "bin/run.sh", base: "echo hi\n", head: "echo hi\n" },
        { path: "src/zero.ts", base: lines(10, "zero"), head: lines(11, "zero") },
        { path: "src/broken.ts", base: lines(3, "broken"), head: lines(4, "broken") },
      ],
    });
    stack.github.changeFileMode(pr, "bin/run.sh");
    stack.github.misreportFile(pr, "src/zero.ts", { patch: null, additions: 0, deletions: 0 });
    stack.github.misreportFile(pr, "src/broken.ts", {
      patch: "@@ -1,3 +1,4 @@\n+only one line",
      diffSection:
        "diff --git a/src/broken.ts b/src/broken.ts\n--- a/src/broken.ts\n+++ b/src/broken.ts\n@@ -1,3 +1,4 @@\n+only one line\n",
    });
    const { consensus, check } = await review(pr);
    expect(check?.conclusion).toBe("neutral");
    // The 0/0 row's hunk came from the .diff, and a model saw it.
    expect(consensus).toContain(ZERO.title);
    expect(consensus).toContain("**Not reviewed:** 1 file, so this review is partial.");
    expect(consensus).toContain("- `src/broken.ts` — its patch from GitHub did not parse");
    // An empty new file and a mode change are what they are, not binaries or unreviewed.
    expect(consensus).not.toContain("`src/empty.ts` —");
    expect(consensus).not.toContain("`bin/run.sh` —");
    expect(check?.output.title).toBe("Significant issues (partial: 1 file not reviewed)");
    expect(stack.github.validationErrors).toEqual([]);
  });
});
