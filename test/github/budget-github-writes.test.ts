import { Probot } from "probot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { budgetGitHubWrites } from "../../src/github/budget-github-writes.js";
import type { GitHubClient } from "../../src/github/github-client.js";
import { isContentCreating } from "../../src/github/is-content-creating.js";
import { takeWriteGrant } from "../../src/github/take-write-grant.js";
import { WriteBudget } from "../../src/github/write-budget.js";
import { InMemoryTokenBuckets } from "../../src/run/queue/in-memory-token-buckets.js";
import type { TokenBuckets } from "../../src/run/queue/token-buckets.js";
import { type FakeGitHub, startFakeGitHub } from "../fakes/fake-github/index.js";
import { probotCredentials } from "../fakes/fake-github/probot-credentials.js";
import { FakeClock } from "../helpers/fake-clock.js";

const SHAPE = { capacity: 10, perMinute: 60 };
const HOUR = { capacity: 100, perMinute: 400 / 60 };

let fake: FakeGitHub;
let probot: Probot;
/** Each take's buckets and needs. */
const takes: { key: string; need: number }[][] = [];

beforeAll(async () => {
  fake = await startFakeGitHub({ appId: 77, appSlug: "gadfly" });
  const inner = new InMemoryTokenBuckets();
  const buckets: TokenBuckets = {
    take: (requests, now) => {
      takes.push(requests.map(({ key, need }) => ({ key, need })));
      return inner.take(requests, now);
    },
  };
  const budget = new WriteBudget({
    buckets,
    minute: { shape: SHAPE, reserve: 3 },
    hour: { shape: HOUR, reserve: 33 },
    maxWaitMs: 60_000,
    clock: new FakeClock(),
  });
  const { privateKey, Octokit } = probotCredentials(fake.apiUrl);
  probot = new Probot({
    appId: 77,
    privateKey,
    secret: "webhook-secret",
    Octokit: Octokit.plugin(budgetGitHubWrites(budget)),
    logLevel: "fatal",
  });
});
afterAll(() => fake.close());

describe("budgetGitHubWrites", () => {
  it("draws each content-creating request of an installation from its bucket, nothing else", async () => {
    const repository = fake.addRepo({ owner: "octo-org", name: "api" });
    const pullRequest = fake.addPullRequest({
      files: [{ path: "a.ts", base: "1\n", head: "2\n" }],
    });
    const octokit = (await probot.auth(repository.installationId)) as GitHubClient;
    const target = { owner: "octo-org", repo: "api" };
    takes.length = 0;
    await octokit.rest.pulls.get({ ...target, pull_number: pullRequest.number });
    const { data: comment } = await octokit.rest.issues.createComment({
      ...target,
      issue_number: pullRequest.number,
      body: "first",
    });
    await octokit.rest.issues.updateComment({
      ...target,
      comment_id: comment.id,
      body: "edited",
      request: { gadflyWrite: { priority: "board" } },
    });
    await octokit.graphql(
      "query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { id } }",
      { owner: "octo-org", name: "api" },
    );
    const key = `github-writes:${repository.installationId}`;
    const hourKey = `github-writes-hour:${repository.installationId}`;
    // The token exchange, the read and the GraphQL query took nothing; a board edit keeps
    // the reserves (it needs 4 tokens of the minute and 34 of the hour to take one of each).
    expect(takes).toEqual([
      [
        { key, need: 1 },
        { key: hourKey, need: 1 },
      ],
      [
        { key, need: 4 },
        { key: hourKey, need: 34 },
      ],
    ]);
    expect(fake.comments(pullRequest).map((written) => written.body)).toEqual(["edited"]);
  });

  it("lets a grant taken ahead pay for exactly one request", async () => {
    const repository = fake.addRepo({ owner: "octo-org", name: "web" });
    const pullRequest = fake.addPullRequest({
      owner: "octo-org",
      repo: "web",
      files: [{ path: "a.ts", base: "1\n", head: "2\n" }],
    });
    const octokit = (await probot.auth(repository.installationId)) as GitHubClient;
    takes.length = 0;
    const grant = await takeWriteGrant(octokit, "board");
    expect(takes).toHaveLength(1);
    const post = () =>
      octokit.rest.issues.createComment({
        owner: "octo-org",
        repo: "web",
        issue_number: pullRequest.number,
        body: "board",
        request: { gadflyWrite: { priority: "board", grant } },
      });
    await post();
    expect(takes).toHaveLength(1);
    await post();
    expect(takes).toHaveLength(2);
    // An app-level client (JWT) creates nothing on a repository: no budget, no grant.
    expect(await takeWriteGrant((await probot.auth()) as GitHubClient, "normal")).toBeUndefined();
  });
});

describe("isContentCreating", () => {
  it("counts what GitHub's content-creation limit counts", () => {
    const cases: [string, string, unknown, boolean][] = [
      ["POST", "/repos/{owner}/{repo}/issues/{issue_number}/comments", undefined, true],
      ["PATCH", "http://127.0.0.1:1/api/v3/repos/o/r/issues/comments/9", undefined, true],
      ["PUT", "/repos/o/r/pulls/1/reviews/2/dismissals", undefined, true],
      ["DELETE", "/repos/o/r/issues/comments/9/reactions/1", undefined, true],
      ["GET", "/repos/o/r/pulls/1", undefined, false],
      ["POST", "/app/installations/{installation_id}/access_tokens", undefined, false],
      ["POST", "/api/graphql", "query { viewer { login } }", false],
      ["POST", "/graphql", "# resolve\nmutation($id: ID!) { resolveReviewThread }", true],
    ];
    for (const [method, url, query, expected] of cases) {
      expect(isContentCreating(method, url, query), `${method} ${url}`).toBe(expected);
    }
  });
});
