import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GitHubClient } from "../../src/github/github-client.js";
import { readBaseAttributes } from "../../src/github/read-base-attributes.js";
import { readListedFiles } from "../../src/github/read-listed-files.js";
import { type FakeGitHub, startFakeGitHub } from "../fakes/fake-github/index.js";
import { quietOctokit } from "../fakes/fake-github/quiet-octokit.js";

let github: FakeGitHub;
let octokit: GitHubClient;

beforeAll(async () => {
  github = await startFakeGitHub({ appId: 1, appSlug: "gadfly" });
  octokit = quietOctokit(github.apiUrl) as unknown as GitHubClient;
});
afterAll(async () => {
  await github.close();
});

const lines = (count: number, tag: string) =>
  `${Array.from({ length: count }, (_, index) => `${tag} ${index + 1}`).join("\n")}\n`;

async function read(
  name: string,
  arrange: (pr: { owner: string; repo: string; number: number }) => void,
) {
  github.addRepo({ owner: "octo", name });
  const pr = github.addPullRequest({
    owner: "octo",
    repo: name,
    files: [
      { path: "src/a.ts", base: lines(10, "a"), head: lines(11, "a") },
      { path: "src/empty.ts", head: "" },
      { path: "logo.png", head: Buffer.from([0x89, 0, 1]) },
      { path: "bin/run.sh", base: "echo hi\n", head: "echo hi\n" },
      {
        path: "src/renamed.ts",
        previousPath: "src/old.ts",
        base: lines(5, "r"),
        head: lines(5, "r"),
      },
    ],
  });
  arrange(pr);
  const repo = { owner: "octo", repo: name };
  const listed = await octokit.paginate(octokit.rest.pulls.listFiles, {
    ...repo,
    pull_number: pr.number,
  });
  return readListedFiles(octokit, repo, pr.number, listed);
}

describe("readListedFiles", () => {
  it("takes an empty file, a mode change and a pure rename for what they are, not binaries", async () => {
    const result = await read("plain", (pr) => github.changeFileMode(pr, "bin/run.sh"));
    const byPath = new Map(result.files.map((file) => [file.path, file]));
    expect(byPath.get("src/empty.ts")).toMatchObject({ status: "added", binary: false, hunks: [] });
    expect(byPath.get("bin/run.sh")).toMatchObject({
      binary: false,
      oldMode: "100644",
      newMode: "100755",
      hunks: [],
    });
    expect(byPath.get("src/renamed.ts")).toMatchObject({
      status: "renamed",
      oldPath: "src/old.ts",
      binary: false,
    });
    // git's own mark in the `.diff`, not a guess from the row's 0/0.
    expect(byPath.get("logo.png")?.binary).toBe(true);
    expect(byPath.get("src/a.ts")?.hunks).toHaveLength(1);
    expect(result.notReviewed).toEqual([]);
  });

  it("gives a 0/0 row without a patch the hunks the `.diff` holds", async () => {
    const result = await read("zero", (pr) =>
      github.misreportFile(pr, "src/a.ts", { patch: null, additions: 0, deletions: 0 }),
    );
    const file = result.files.find((entry) => entry.path === "src/a.ts");
    expect(file?.binary).toBe(false);
    expect(file?.hunks).toHaveLength(1);
    expect(file?.additions).toBe(1);
    expect(result.notReviewed).toEqual([]);
  });

  it("fails only the file whose patch does not parse, when the `.diff` cannot give it either", async () => {
    const result = await read("broken", (pr) => {
      // A patch that does not parse; the `.diff` section the same (a 406 would do the same).
      github.misreportFile(pr, "src/a.ts", { patch: "@@ -1,3 +1,3 @@\n+only one line" });
      github.failNext("GET", "/repos/octo/broken/pulls/*", 406);
    });
    // Without the `.diff`, a 0/0 row cannot be told apart from one with changes.
    expect(result.notReviewed).toEqual([
      { path: "logo.png", reason: "no-patch" },
      { path: "src/a.ts", reason: "unparsable" },
      { path: "src/empty.ts", reason: "no-patch" },
      { path: "src/renamed.ts", reason: "no-patch" },
    ]);
    expect(result.files.map((file) => file.path)).toEqual([]);
  });

  it("recovers a file whose patch does not parse from the `.diff`", async () => {
    const result = await read("recovered", (pr) =>
      github.misreportFile(pr, "src/a.ts", { patch: "@@ -1,3 +1,3 @@\n+only one line" }),
    );
    expect(result.files.find((file) => file.path === "src/a.ts")?.hunks).toHaveLength(1);
    expect(result.notReviewed).toEqual([]);
  });

  it("lists a row with changes the `.diff` shows no hunks for as not reviewed", async () => {
    const result = await read("claimed", (pr) =>
      github.misreportFile(pr, "src/empty.ts", { additions: 3 }),
    );
    expect(result.notReviewed).toEqual([{ path: "src/empty.ts", reason: "too-large" }]);
  });
});

describe("readBaseAttributes", () => {
  it("reads the base's .gitattributes, never the head's, and null when there is none", async () => {
    github.addRepo({
      owner: "octo",
      name: "attributes",
      files: { ".gitattributes": "gen/** linguist-generated\n" },
    });
    const pr = github.addPullRequest({
      owner: "octo",
      repo: "attributes",
      // The author marks their own code generated at the head: not read.
      files: [
        {
          path: ".gitattributes",
          base: "gen/** linguist-generated\n",
          head: "src/** linguist-generated\n",
        },
      ],
    });
    const repo = { owner: "octo", repo: "attributes" };
    expect(await readBaseAttributes(octokit, repo, pr.baseSha)).toBe("gen/** linguist-generated\n");
    github.addRepo({ owner: "octo", name: "bare" });
    const bare = github.addPullRequest({
      owner: "octo",
      repo: "bare",
      files: [{ path: "a.ts", head: "a\n" }],
    });
    expect(
      await readBaseAttributes(octokit, { owner: "octo", repo: "bare" }, bare.baseSha),
    ).toBeNull();
  });
});
