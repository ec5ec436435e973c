import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_CONFIG_LIMITS } from "../../src/config/repo-config-limits.js";
import { DEFAULT_REPO_CONFIG } from "../../src/config/repo-config-schema.js";
import type { GitHubClient } from "../../src/github/github-client.js";
import { loadRepoConfig, REPO_CONFIG_PATH } from "../../src/github/load-repo-config.js";
import { type FakeGitHub, startFakeGitHub } from "../fakes/fake-github/index.js";
import { probotCredentials } from "../fakes/fake-github/probot-credentials.js";

let github: FakeGitHub;
let octokit: GitHubClient;

const repoWith = (name: string, text: string) => {
  github.addRepo({ owner: "octo-org", name, files: { [REPO_CONFIG_PATH]: text } });
  return { owner: "octo-org", repo: name };
};

beforeAll(async () => {
  github = await startFakeGitHub({ appId: 1, appSlug: "gadfly" });
  const { Octokit } = probotCredentials(github.apiUrl);
  octokit = new Octokit({ auth: "installation-token" }) as GitHubClient;
});
afterAll(async () => {
  await github.close();
});

describe("loadRepoConfig", () => {
  it("reads the default branch's file in one request, never the pull request's head", async () => {
    github.addRepo({
      owner: "octo-org",
      name: "trunk-repo",
      defaultBranch: "trunk",
      files: { [REPO_CONFIG_PATH]: "lenses: [security]\n" },
    });
    const repo = { owner: "octo-org", repo: "trunk-repo" };
    // The pull request's head rewrites the file: it must not count.
    github.addPullRequest({
      owner: "octo-org",
      repo: "trunk-repo",
      files: [
        {
          path: REPO_CONFIG_PATH,
          base: "lenses: [security]\n",
          head: "lenses: [performance]\n",
        },
      ],
    });
    const before = github.requests().length;

    const loaded = await loadRepoConfig(octokit, repo);

    expect(loaded.issues).toBeNull();
    expect(loaded.config.lenses).toEqual(["security"]);
    const requests = github.requests().slice(before);
    expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      `GET /repos/octo-org/trunk-repo/contents/${REPO_CONFIG_PATH}`,
    ]);
  });

  it("refuses a file over the size limit before parsing it, and runs on the defaults", async () => {
    const text = `# ${"x".repeat(REPO_CONFIG_LIMITS.fileBytes)}\nonPush: off\n`;
    const loaded = await loadRepoConfig(octokit, repoWith("huge", text));
    expect(loaded.config).toEqual(DEFAULT_REPO_CONFIG);
    expect(loaded.issues).toEqual([
      {
        path: "",
        message: `${REPO_CONFIG_PATH} is ${Buffer.byteLength(text)} bytes; the limit is ${REPO_CONFIG_LIMITS.fileBytes}`,
      },
    ]);
  });

  it("refuses a YAML alias bomb (a small file that expands to millions of entries)", async () => {
    const levels = ["a: &a [x, x, x, x, x, x, x, x, x, x]"];
    for (let level = 1; level < 9; level++) {
      const previous = String.fromCharCode(96 + level);
      const name = String.fromCharCode(97 + level);
      levels.push(
        `${name}: &${name} [${Array.from({ length: 10 }, () => `*${previous}`).join(", ")}]`,
      );
    }
    const started = performance.now();
    const loaded = await loadRepoConfig(octokit, repoWith("bomb", `${levels.join("\n")}\n`));
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(loaded.config).toEqual(DEFAULT_REPO_CONFIG);
    expect(loaded.issues?.[0]?.message).toMatch(/alias/i);
  });

  it("names a glob outside the safe subset and keeps nothing of the file", async () => {
    const loaded = await loadRepoConfig(
      octokit,
      repoWith("glob", 'onPush: off\nignore: ["docs/**", "(a+)+b"]\n'),
    );
    expect(loaded.config).toEqual(DEFAULT_REPO_CONFIG);
    expect(loaded.issues?.map((issue) => issue.path)).toEqual(["ignore[1]"]);
  });
});
