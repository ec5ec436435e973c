import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findOwnReview } from "../../src/github/find-own-review.js";
import type { GitHubClient } from "../../src/github/github-client.js";
import { findOwnCheckRun } from "../../src/github/publish-check-run.js";
import { renderInlineReviewBody } from "../../src/render/index.js";
import { type FakeGitHub, startFakeGitHub } from "../fakes/fake-github/index.js";
import { probotCredentials } from "../fakes/fake-github/probot-credentials.js";

const repo = { owner: "octo-org", repo: "adopt" };
const runId = "2f1c9a4e-0000-4000-8000-000000000001";
const body = (id: string) => renderInlineReviewBody({ inlineCount: 0, unplaced: [], runId: id });

let github: FakeGitHub;
let octokit: GitHubClient;
let attacker: GitHubClient;

beforeAll(async () => {
  github = await startFakeGitHub({ appSlug: "gadfly" });
  github.addRepo({ owner: repo.owner, name: repo.repo });
  const { Octokit } = probotCredentials(github.apiUrl);
  octokit = new Octokit({ auth: { token: "t" } }) as GitHubClient;
  attacker = new Octokit({ auth: { token: github.createUserToken("mallory") } }) as GitHubClient;
});
afterAll(() => github.close());

const pullRequest = () =>
  github.addPullRequest({
    owner: repo.owner,
    repo: repo.repo,
    files: [{ path: "a.txt", base: "a\n", head: "b\n" }],
  });

describe("findOwnReview: the review a round posted before a kill", () => {
  it("is ours by login, head SHA, marker and the round's id in the meta line", async () => {
    const pr = pullRequest();
    const query = {
      repo,
      pullNumber: pr.number,
      headSha: pr.headSha,
      runId,
      botLogin: "gadfly[bot]",
    };
    expect(await findOwnReview(octokit, query)).toBeNull();
    const post = (client: GitHubClient, text: string) =>
      client.rest.pulls.createReview({
        ...repo,
        pull_number: pr.number,
        commit_id: pr.headSha,
        event: "COMMENT",
        body: text,
      });
    // Someone else's review carrying our marker and the round's id is never adopted.
    await post(attacker, body(runId));
    // Ours, but another round's (a re-run on the same head).
    await post(octokit, body("another-round"));
    expect(await findOwnReview(octokit, query)).toBeNull();
    const { data: mine } = await post(octokit, body(runId));
    expect(await findOwnReview(octokit, query)).toBe(mine.id);
    // On another head it is not this round's.
    expect(await findOwnReview(octokit, { ...query, headSha: "0".repeat(40) })).toBeNull();
  });
});

describe("findOwnCheckRun: the check a round created before a kill", () => {
  it("is our check's name with the round's id as external_id", async () => {
    const pr = pullRequest();
    const create = (name: string, externalId: string) =>
      octokit.rest.checks.create({ ...repo, name, head_sha: pr.headSha, external_id: externalId });
    await create("Gadfly", "another-round");
    await create("Other CI", runId);
    expect(await findOwnCheckRun(octokit, repo, pr.headSha, runId)).toBeNull();
    const { data: mine } = await create("Gadfly", runId);
    expect(await findOwnCheckRun(octokit, repo, pr.headSha, runId)).toBe(mine.id);
  });
});
