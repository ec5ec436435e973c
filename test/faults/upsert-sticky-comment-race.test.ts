import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GitHubClient } from "../../src/github/github-client.js";
import { upsertStickyComment } from "../../src/github/upsert-sticky-comment.js";
import { type FakeGitHub, startFakeGitHub } from "../fakes/fake-github/index.js";
import { quietOctokit } from "../fakes/fake-github/quiet-octokit.js";

const MARKER = "<!-- gadfly-consensus -->";

/*
 * Two rounds of one PR publishing at once (a push landing while the older
 * round posts its consensus) must leave one sticky comment, not two.
 */
describe("upsertStickyComment under concurrency and rate limits", () => {
  let github: FakeGitHub;
  let octokit: GitHubClient;

  beforeAll(async () => {
    github = await startFakeGitHub({ appId: 1, appSlug: "gadfly" });
    octokit = quietOctokit(github.apiUrl) as unknown as GitHubClient;
    github.addRepo({ owner: "octo-org", name: "sticky" });
  });

  afterAll(async () => {
    await github?.close();
  });

  const openPullRequest = (title: string) =>
    github.addPullRequest({
      owner: "octo-org",
      repo: "sticky",
      title,
      files: [{ path: "a.js", base: "a\n", head: "b\n" }],
    });
  const target = (issueNumber: number) => ({
    repo: { owner: "octo-org", repo: "sticky" },
    issueNumber,
    marker: MARKER,
    botLogin: "gadfly[bot]",
  });
  const ours = (pr: ReturnType<typeof openPullRequest>) =>
    github.comments(pr).filter((comment) => comment.body.startsWith(MARKER));

  it("creates one comment when two upserts race, the later one editing it", async () => {
    const pr = openPullRequest("Race");
    // The first creation is slow: without serialisation the second finds nothing and creates too.
    github.setLatency("POST", `/repos/octo-org/sticky/issues/${pr.number}/comments`, 300);
    const [first, second] = await Promise.all([
      upsertStickyComment(octokit, target(pr.number), `${MARKER}\nround 1`),
      upsertStickyComment(octokit, target(pr.number), `${MARKER}\nround 2`),
    ]);
    github.clearFaults();
    expect(second.id).toBe(first.id);
    expect(ours(pr).map((comment) => comment.body)).toEqual([`${MARKER}\nround 2`]);
  });

  it("does not serialise different pull requests behind each other's failures", async () => {
    const broken = openPullRequest("Broken");
    const fine = openPullRequest("Fine");
    // A refusal (4xx): nothing was created, and it is not sent again.
    github.failNext("POST", `/repos/octo-org/sticky/issues/${broken.number}/comments`, 403, {
      times: 1,
    });
    const results = await Promise.allSettled([
      upsertStickyComment(octokit, target(broken.number), `${MARKER}\nbroken`),
      upsertStickyComment(octokit, target(fine.number), `${MARKER}\nfine`),
    ]);
    expect(results.map((result) => result.status)).toEqual(["rejected", "fulfilled"]);
    // A failed upsert does not wedge the next one for the same comment.
    await upsertStickyComment(octokit, target(broken.number), `${MARKER}\nbroken, retried`);
    expect(ours(broken).map((comment) => comment.body)).toEqual([`${MARKER}\nbroken, retried`]);
    expect(ours(fine)).toHaveLength(1);
  });

  it("retries a creation refused by the secondary rate limit, posting once", async () => {
    const pr = openPullRequest("Limited");
    const path = `/repos/octo-org/sticky/issues/${pr.number}/comments`;
    github.secondaryRateLimitNext("POST", path, 0);
    await upsertStickyComment(octokit, target(pr.number), `${MARKER}\nlimited`);
    expect(github.requests({ method: "POST", path }).map((request) => request.status)).toEqual([
      403, 201,
    ]);
    expect(ours(pr)).toHaveLength(1);
  });
});
