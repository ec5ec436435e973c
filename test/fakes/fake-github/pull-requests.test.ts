import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Octokit } from "@octokit/rest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeGitHub, startFakeGitHub } from "./index.js";
import { quietOctokit } from "./quiet-octokit.js";

let fake: FakeGitHub;
let octokit: Octokit;
const repository = { owner: "octo-org", repo: "widgets" };

beforeAll(async () => {
  fake = await startFakeGitHub();
  fake.addRepo({
    owner: "octo-org",
    name: "widgets",
    ownerType: "Organization",
    files: { ".github/gadfly.yml": "lenses: [security]\n", "README.md": "# widgets\n" },
  });
  octokit = quietOctokit(fake.apiUrl);
});
afterAll(() => fake.close());

describe("pull request files", () => {
  it("pages 250 files with a Link header", async () => {
    const pullRequest = fake.addPullRequest({
      files: Array.from({ length: 250 }, (_, index) => ({
        path: `src/file-${String(index).padStart(3, "0")}.ts`,
        head: `export const value = ${index};\n`,
      })),
    });
    const first = await octokit.rest.pulls.listFiles({
      ...repository,
      pull_number: pullRequest.number,
      per_page: 100,
    });
    expect(first.data).toHaveLength(100);
    expect(first.headers.link).toContain('rel="next"');
    expect(first.headers.link).toContain("/api/v3/repos/octo-org/widgets/pulls/");
    expect(first.headers.link).toMatch(/page=3>; rel="last"/);

    const files = await octokit.paginate(octokit.rest.pulls.listFiles, {
      ...repository,
      pull_number: pullRequest.number,
      per_page: 100,
    });
    expect(files).toHaveLength(250);
    expect(new Set(files.map((file) => file.filename)).size).toBe(250);
    expect(files[249]).toMatchObject({
      filename: "src/file-249.ts",
      status: "added",
      additions: 1,
      deletions: 0,
      patch: "@@ -0,0 +1 @@\n+export const value = 249;",
    });
    const pages = fake.requests({
      method: "GET",
      path: `/repos/octo-org/widgets/pulls/${pullRequest.number}/files`,
    });
    expect(pages.map((request) => request.query.page ?? "1")).toEqual(["1", "1", "2", "3"]);
    expect(pages.every((request) => request.enterprisePrefix)).toBe(true);
  });

  it("stops listing at 3000 files", async () => {
    const pullRequest = fake.addPullRequest({
      files: Array.from({ length: 3001 }, (_, index) => ({ path: `f/${index}.txt`, head: "x\n" })),
    });
    const page = (number: number) =>
      octokit.rest.pulls.listFiles({
        ...repository,
        pull_number: pullRequest.number,
        per_page: 100,
        page: number,
      });
    const first = await page(1);
    expect(first.headers.link).toMatch(/page=30>; rel="last"/);
    expect((await page(30)).data).toHaveLength(100);
    expect((await page(31)).data).toHaveLength(0);
  });

  it("lists renames, removals and binary files like GitHub", async () => {
    const pullRequest = fake.addPullRequest({
      title: "Mixed change",
      files: [
        {
          path: "lib/renamed.ts",
          previousPath: "lib/original.ts",
          base: "a\nb\nc\n",
          head: "a\nB\nc\n",
        },
        { path: "lib/removed.ts", base: "gone\n" },
        {
          path: "assets/logo.png",
          base: Buffer.from([0x89, 0, 1]),
          head: Buffer.from([0x89, 0, 2]),
        },
      ],
    });
    const { data } = await octokit.rest.pulls.listFiles({
      ...repository,
      pull_number: pullRequest.number,
    });
    expect(data.map((file) => [file.filename, file.status, file.previous_filename])).toEqual([
      ["assets/logo.png", "modified", undefined],
      ["lib/removed.ts", "removed", undefined],
      ["lib/renamed.ts", "renamed", "lib/original.ts"],
    ]);
    expect(data[0]?.patch).toBeUndefined();
    expect(data[1]).toMatchObject({ deletions: 1, patch: "@@ -1 +0,0 @@\n-gone" });
    expect(data[2]).toMatchObject({ additions: 1, deletions: 1, changes: 2 });
  });
});

describe("a pull request", () => {
  it("answers JSON, and the unified diff for the diff media types", async () => {
    const pullRequest = fake.addPullRequest({
      title: "Fix the widget",
      user: "alice",
      files: [{ path: "src/widget.ts", base: "const a = 1;\n", head: "const a = 2;\n" }],
    });
    const { data } = await octokit.rest.pulls.get({
      ...repository,
      pull_number: pullRequest.number,
    });
    expect(data).toMatchObject({
      number: pullRequest.number,
      title: "Fix the widget",
      draft: false,
      state: "open",
      user: { login: "alice", type: "User" },
      head: {
        sha: pullRequest.headSha,
        ref: pullRequest.headRef,
        repo: { full_name: "octo-org/widgets" },
      },
      base: { sha: pullRequest.baseSha, ref: "main" },
    });

    const diff = await octokit.rest.pulls.get({
      ...repository,
      pull_number: pullRequest.number,
      mediaType: { format: "diff" },
    });
    const expectedDiff = [
      "diff --git a/src/widget.ts b/src/widget.ts",
      expect.stringMatching(/^index [0-9a-f]{7}\.\.[0-9a-f]{7} 100644$/),
      "--- a/src/widget.ts",
      "+++ b/src/widget.ts",
      "@@ -1 +1 @@",
      "-const a = 1;",
      "+const a = 2;",
      "",
    ];
    expect(String(diff.data).split("\n")).toEqual(expectedDiff);

    const raw = await fetch(`${fake.url}/repos/octo-org/widgets/pulls/${pullRequest.number}`, {
      headers: { accept: "application/vnd.github.diff", authorization: "token x" },
    });
    expect(await raw.text()).toBe(String(diff.data));
  });

  it("recomputes files and diff when a commit is pushed", async () => {
    const opened = fake.addPullRequest({
      files: [{ path: "src/counter.ts", base: "let count = 0;\n", head: "let count = 1;\n" }],
    });
    const pushed = fake.pushCommit(opened, [
      { path: "src/counter.ts", content: "let count = 2;\n" },
      { path: "src/extra.ts", content: "export {};\n" },
    ]);
    expect(pushed.headSha).not.toBe(opened.headSha);
    expect(pushed.baseSha).toBe(opened.baseSha);
    const { data } = await octokit.rest.pulls.get({ ...repository, pull_number: opened.number });
    expect(data.head.sha).toBe(pushed.headSha);
    const { data: files } = await octokit.rest.pulls.listFiles({
      ...repository,
      pull_number: opened.number,
    });
    expect(files.map((file) => file.filename)).toEqual(["src/counter.ts", "src/extra.ts"]);
    expect(files[0]?.patch).toContain("+let count = 2;");
  });

  it("refuses the diff media type past 300 files, as GitHub does", async () => {
    const pullRequest = fake.addPullRequest({
      files: Array.from({ length: 301 }, (_, index) => ({
        path: `many/${index}.txt`,
        head: "x\n",
      })),
    });
    await expect(
      octokit.rest.pulls.get({
        ...repository,
        pull_number: pullRequest.number,
        mediaType: { format: "diff" },
      }),
    ).rejects.toMatchObject({ status: 406 });
  });

  it("answers 404 for an unknown pull request", async () => {
    await expect(octokit.rest.pulls.get({ ...repository, pull_number: 999 })).rejects.toMatchObject(
      {
        status: 404,
      },
    );
  });
});

describe("contents and tarballs", () => {
  it("serves base64 contents per ref and 404 for absent files", async () => {
    const { data } = await octokit.rest.repos.getContent({
      ...repository,
      path: ".github/gadfly.yml",
    });
    expect(Array.isArray(data)).toBe(false);
    if (Array.isArray(data) || data.type !== "file") throw new Error("expected a file");
    expect(data.encoding).toBe("base64");
    expect(Buffer.from(data.content, "base64").toString()).toBe("lenses: [security]\n");

    fake.setFile("main", ".github/gadfly.yml", "lenses: [performance]\n");
    const updated = await octokit.rest.repos.getContent({
      ...repository,
      path: ".github/gadfly.yml",
      ref: "main",
    });
    if (Array.isArray(updated.data) || updated.data.type !== "file")
      throw new Error("expected a file");
    expect(Buffer.from(updated.data.content, "base64").toString()).toBe("lenses: [performance]\n");

    const pullRequest = fake.addPullRequest({
      files: [{ path: "src/head-only.ts", head: "export {};\n" }],
    });
    await expect(
      octokit.rest.repos.getContent({ ...repository, path: "src/head-only.ts" }),
    ).rejects.toMatchObject({ status: 404 });
    const atHead = await octokit.rest.repos.getContent({
      ...repository,
      path: "src/head-only.ts",
      ref: pullRequest.headSha,
    });
    expect(Array.isArray(atHead.data)).toBe(false);
    await expect(
      octokit.rest.repos.getContent({ ...repository, path: "missing.txt" }),
    ).rejects.toMatchObject({ status: 404 });
  });

  it("redirects the tarball to an archive tar extracts", async () => {
    const longPath = `deep/${"nested-directory-name/".repeat(6)}file-with-a-long-name.ts`;
    const pullRequest = fake.addPullRequest({
      files: [
        { path: "src/app.ts", base: "old\n", head: "new\n" },
        { path: longPath, head: "long\n" },
        { path: "assets/blob.bin", head: Buffer.from([0, 1, 2, 255]) },
      ],
    });
    const response = await octokit.rest.repos.downloadTarballArchive({
      ...repository,
      ref: pullRequest.headSha,
    });
    expect(response.url).toContain("/_codeload/octo-org/widgets/legacy.tar.gz/");
    const directory = mkdtempSync(join(tmpdir(), "fake-github-tarball-"));
    try {
      writeFileSync(join(directory, "archive.tar.gz"), Buffer.from(response.data as ArrayBuffer));
      execFileSync("tar", ["-xzf", "archive.tar.gz"], { cwd: directory });
      const root = join(directory, `octo-org-widgets-${pullRequest.headSha.slice(0, 7)}`);
      expect(readFileSync(join(root, "src/app.ts"), "utf8")).toBe("new\n");
      expect(readFileSync(join(root, longPath), "utf8")).toBe("long\n");
      expect([...readFileSync(join(root, "assets/blob.bin"))]).toEqual([0, 1, 2, 255]);
      expect(readFileSync(join(root, "README.md"), "utf8")).toBe("# widgets\n");
      const listing = execFileSync("tar", ["-tzf", "archive.tar.gz"], {
        cwd: directory,
      }).toString();
      expect(
        listing.split("\n").every((entry) => entry === "" || entry.startsWith("octo-org-widgets-")),
      ).toBe(true);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});

it("reports collaborator permissions", async () => {
  fake.addCollaborator("maintainer", "write");
  const write = await octokit.rest.repos.getCollaboratorPermissionLevel({
    ...repository,
    username: "maintainer",
  });
  expect(write.data.permission).toBe("write");
  const none = await octokit.rest.repos.getCollaboratorPermissionLevel({
    ...repository,
    username: "stranger",
  });
  expect(none.data.permission).toBe("none");
});
