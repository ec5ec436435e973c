import { afterEach, describe, expect, it } from "vitest";
import { type FakeGitHub, startFakeGitHub } from "./index.js";
import { quietOctokit } from "./quiet-octokit.js";

let fake: FakeGitHub | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function start(options: Parameters<typeof startFakeGitHub>[0] = {}) {
  fake = await startFakeGitHub(options);
  fake.addRepo({ owner: "alice", name: "service" });
  const pullRequest = fake.addPullRequest({ files: [{ path: "a.txt", base: "a\n", head: "b\n" }] });
  return { fake, pullRequest, octokit: quietOctokit(fake.apiUrl) };
}

// An unsigned token shaped like the app's JWT: the fake reads its claims only.
function appJwt(issuer: number): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${encode({ alg: "RS256", typ: "JWT" })}.${encode({ iss: issuer, iat: 0, exp: 9_999_999_999 })}.signature`;
}

describe("scripted faults", () => {
  it("answers the next matching request with the scripted status, then behaves again", async () => {
    const { fake, pullRequest, octokit } = await start();
    const { data: comment } = await octokit.rest.issues.createComment({
      owner: "alice",
      repo: "service",
      issue_number: pullRequest.number,
      body: "v1",
    });
    fake.failNext("PATCH", "/repos/alice/service/issues/comments/*", 500);
    const edit = () =>
      octokit.rest.issues.updateComment({
        owner: "alice",
        repo: "service",
        comment_id: comment.id,
        body: "v2",
      });
    await expect(edit()).rejects.toMatchObject({
      status: 500,
      response: { data: { message: "Server Error" } },
    });
    expect(fake.comments(pullRequest)[0]?.body).toBe("v1");
    await edit();
    expect(fake.comments(pullRequest)[0]?.body).toBe("v2");
    expect(
      fake.requests({ method: "PATCH" }).map((request) => [request.status, request.faulted]),
    ).toEqual([
      [500, true],
      [200, false],
    ]);
    expect(fake.pendingFaults).toBe(0);
  });

  it("scripts a secondary rate limit with retry-after and creates nothing", async () => {
    const { fake, pullRequest, octokit } = await start();
    fake.secondaryRateLimitNext("POST", "/repos/alice/service/issues/*/comments", 42);
    const failure = await octokit.rest.issues
      .createComment({
        owner: "alice",
        repo: "service",
        issue_number: pullRequest.number,
        body: "x",
      })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({
      status: 403,
      response: {
        headers: { "retry-after": "42" },
        data: { message: expect.stringContaining("secondary rate limit") },
      },
    });
    expect(fake.comments(pullRequest)).toEqual([]);
  });

  it("can answer several requests and match with a RegExp", async () => {
    const { fake, pullRequest, octokit } = await start();
    fake.failNext("GET", /^\/repos\/alice\/service\/pulls\/\d+$/, 404, { times: 2 });
    const get = () =>
      octokit.rest.pulls.get({ owner: "alice", repo: "service", pull_number: pullRequest.number });
    await expect(get()).rejects.toMatchObject({ status: 404 });
    await expect(get()).rejects.toMatchObject({ status: 404 });
    await expect(get()).resolves.toMatchObject({ status: 200 });
  });

  it("waits the scripted latency through the injected sleep", async () => {
    const waits: number[] = [];
    const { fake, pullRequest, octokit } = await start({
      sleep: async (milliseconds) => {
        waits.push(milliseconds);
      },
    });
    fake.setLatency("GET", "/repos/alice/service/pulls/*/files", 250);
    await octokit.rest.pulls.get({
      owner: "alice",
      repo: "service",
      pull_number: pullRequest.number,
    });
    await octokit.rest.pulls.listFiles({
      owner: "alice",
      repo: "service",
      pull_number: pullRequest.number,
    });
    expect(waits).toEqual([250]);
  });
});

describe("recording", () => {
  it("records unknown routes as 404 with GitHub's error shape", async () => {
    const { fake, octokit } = await start();
    const failure = await octokit
      .request("GET /repos/{owner}/{repo}/branches", { owner: "alice", repo: "service" })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({
      status: 404,
      response: {
        data: {
          message: "Not Found",
          documentation_url: expect.stringMatching(/^https:\/\/docs\.github\.com/),
        },
      },
    });
    expect(fake.unknownRoutes.map((request) => `${request.method} ${request.path}`)).toEqual([
      "GET /repos/alice/service/branches",
    ]);
  });

  it("serves the API at / and under /api/v3 and filters requests by method and path", async () => {
    const { fake } = await start();
    const atRoot = quietOctokit(fake.url);
    await atRoot.rest.repos.get({ owner: "alice", repo: "service" });
    await quietOctokit(fake.apiUrl).rest.repos.get({ owner: "alice", repo: "service" });
    const recorded = fake.requests({ method: "get", path: "/repos/*/service" });
    expect(recorded.map((request) => request.enterprisePrefix)).toEqual([false, true]);
    expect(recorded[0]?.headers).not.toHaveProperty("authorization");
    expect(recorded[0]?.auth).toBe("installation");
    expect(fake.requests({ path: "/repos/**" })).toHaveLength(2);
  });

  it("counts content-creating requests per minute on the injected clock", async () => {
    let now = new Date("2026-01-01T00:00:50Z");
    const { fake, pullRequest, octokit } = await start({ now: () => now });
    const comment = () =>
      octokit.rest.issues.createComment({
        owner: "alice",
        repo: "service",
        issue_number: pullRequest.number,
        body: "x",
      });
    await comment();
    await comment();
    now = new Date("2026-01-01T00:01:10Z");
    await comment();
    await comment();
    await comment();
    await octokit.rest.pulls.get({
      owner: "alice",
      repo: "service",
      pull_number: pullRequest.number,
    });
    now = new Date("2026-01-01T00:03:00Z");
    await comment();
    expect(fake.contentCreatingPerMinute()).toEqual([
      { minute: "2026-01-01T00:00:00.000Z", count: 2 },
      { minute: "2026-01-01T00:01:00.000Z", count: 3 },
      { minute: "2026-01-01T00:03:00.000Z", count: 1 },
    ]);
    expect(fake.peakContentCreatingPerMinute()).toBe(5);
  });
});

describe("secondary rate limit", () => {
  it("refuses an installation's content-creating requests past the limit in a sliding window, like GitHub", async () => {
    let now = new Date("2026-01-01T00:00:00Z");
    const { fake, pullRequest } = await start({
      now: () => now,
      secondaryRateLimit: { limit: 3, windowMs: 60_000 },
    });
    const bob = fake.addRepo({ owner: "bob", name: "tool" });
    const bobPull = fake.addPullRequest({
      owner: "bob",
      repo: "tool",
      files: [{ path: "a.txt", base: "a\n", head: "b\n" }],
    });
    const tokenFor = async (installationId: number) => {
      const response = await fetch(
        `${fake.apiUrl}/app/installations/${installationId}/access_tokens`,
        {
          method: "POST",
          headers: { authorization: `Bearer ${appJwt(1)}` },
        },
      );
      return quietOctokit(fake.apiUrl, ((await response.json()) as { token: string }).token);
    };
    const alice = await tokenFor(pullRequest.repository.installationId);
    const asBob = await tokenFor(bob.installationId);
    const comment = (octokit = alice, target = pullRequest) =>
      octokit.rest.issues.createComment({
        owner: target.owner,
        repo: target.repo,
        issue_number: target.number,
        body: "x",
      });
    for (let second = 0; second < 3; second++) {
      now = new Date(Date.UTC(2026, 0, 1, 0, 0, second * 10));
      await comment();
    }
    now = new Date("2026-01-01T00:00:45Z");
    await expect(comment()).rejects.toMatchObject({
      status: 403,
      response: {
        headers: { "retry-after": "15" },
        data: { message: expect.stringContaining("exceeded a secondary rate limit") },
      },
    });
    // Reads are not limited, nor is another installation.
    await alice.rest.pulls.get({
      owner: "alice",
      repo: "service",
      pull_number: pullRequest.number,
    });
    await comment(asBob, bobPull);
    // Once the first leaves the window, one more fits.
    now = new Date("2026-01-01T00:01:00.001Z");
    await comment();
    await expect(comment()).rejects.toMatchObject({ status: 403 });
    expect(fake.comments(pullRequest)).toHaveLength(4);
    expect(fake.secondaryRateLimited.map((request) => request.at.toISOString())).toEqual([
      "2026-01-01T00:00:45.000Z",
      "2026-01-01T00:01:00.001Z",
    ]);
    expect(fake.peakContentCreatingByInstallation()).toEqual({
      [String(pullRequest.repository.installationId)]: 5,
      [String(bob.installationId)]: 1,
    });
  });
});

describe("authentication", () => {
  it("exchanges an app JWT for an installation token scoped to its installation", async () => {
    const { fake, pullRequest } = await start();
    const other = fake.addRepo({ owner: "bob", name: "elsewhere" });
    expect(other.installationId).not.toBe(pullRequest.repository.installationId);
    const alice = await fetch(
      `${fake.apiUrl}/app/installations/${pullRequest.repository.installationId}/access_tokens`,
      {
        method: "POST",
        headers: { authorization: `Bearer ${appJwt(1)}` },
      },
    );
    expect(alice.status).toBe(201);
    const { token } = (await alice.json()) as { token: string };
    expect(fake.issuedTokens.map((issued) => issued.token)).toEqual([token]);
    const asInstallation = quietOctokit(fake.apiUrl, token);
    await expect(
      asInstallation.rest.repos.get({ owner: "alice", repo: "service" }),
    ).resolves.toMatchObject({ status: 200 });
    await expect(
      asInstallation.rest.repos.get({ owner: other.owner.login, repo: other.name }),
    ).rejects.toMatchObject({ status: 404 });
    await expect(
      quietOctokit(fake.apiUrl, appJwt(1)).rest.repos.get({ owner: "alice", repo: "service" }),
    ).rejects.toMatchObject({ status: 401 });
    await expect(
      quietOctokit(fake.apiUrl, appJwt(99)).rest.apps.getAuthenticated(),
    ).rejects.toMatchObject({ status: 401 });
    await expect(
      quietOctokit(fake.apiUrl, token).rest.apps.getAuthenticated(),
    ).rejects.toMatchObject({ status: 401 });
  });

  it("refuses unknown tokens when strict, and anonymous writes always", async () => {
    const { fake, pullRequest } = await start({ strictAuth: true });
    await expect(
      quietOctokit(fake.apiUrl, "made-up").rest.repos.get({ owner: "alice", repo: "service" }),
    ).rejects.toMatchObject({ status: 401 });
    const anonymous = await fetch(
      `${fake.apiUrl}/repos/alice/service/issues/${pullRequest.number}/comments`,
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ body: "x" }),
      },
    );
    expect(anonymous.status).toBe(401);
    expect((await fetch(`${fake.apiUrl}/repos/alice/service`)).status).toBe(200);
  });
});
