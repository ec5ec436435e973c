import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Probot, type ProbotOctokit } from "probot";
import { afterAll, beforeAll, expect, it } from "vitest";
import { githubOctokit } from "../../src/boot/github-octokit.js";
import { createNodeFetch } from "../../src/http/index.js";
import { startFakeGitHub } from "../fakes/fake-github/index.js";
import { probotCredentials } from "../fakes/fake-github/probot-credentials.js";

let server: Server;
let baseUrl = "";
const userAgents: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    userAgents.push(String(request.headers["user-agent"]));
    const found = request.url === "/repos/octo-org/api";
    response.writeHead(found ? 200 : 404, { "content-type": "application/json" });
    response.end(JSON.stringify(found ? { id: 1, name: "api" } : { message: "Not Found" }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

it("keeps Probot's Octokit (throttling, retries, its defaults) and counts every request by route", async () => {
  const counted: string[] = [];
  const Octokit = githubOctokit({
    githubRequest: (kind, outcome) => counted.push(`${kind} ${outcome}`),
  });
  const plugins = (Octokit as unknown as { plugins: { name: string }[] }).plugins.map(
    (plugin) => plugin.name,
  );
  expect(plugins).toEqual(expect.arrayContaining(["throttling", "retry", "paginateRest"]));

  const octokit = new Octokit({
    baseUrl,
    auth: { token: "installation-token" },
    retry: { enabled: false },
  });
  await octokit.rest.repos.get({ owner: "octo-org", repo: "api" });
  await expect(octokit.rest.repos.get({ owner: "octo-org", repo: "gone" })).rejects.toThrow();
  expect(counted).toEqual(["GET /repos/{owner}/{repo} ok", "GET /repos/{owner}/{repo} error"]);
  // Probot's defaults still apply to the extended class.
  expect(userAgents[0]).toMatch(/^probot\//);
});

it("sends every request with the fetch it is given: the app's token requests, the API, the tarball's redirect", async () => {
  const fake = await startFakeGitHub({ appId: 4242, appSlug: "gadfly", strictAuth: true });
  const nodeFetch = createNodeFetch();
  const sent: string[] = [];
  const counting: typeof fetch = (input, init) => {
    sent.push(input instanceof Request ? input.url : String(input));
    return nodeFetch(input, init);
  };
  try {
    const { privateKey } = probotCredentials(fake.apiUrl);
    // As probotCredentials does, on our class: the fake's URL, no retries or throttling.
    const Octokit = githubOctokit({ githubRequest: () => undefined }, [], null, counting).defaults(
      (options: Record<string, unknown>) => ({
        ...options,
        baseUrl: fake.apiUrl,
        retry: { enabled: false },
        throttle: { enabled: false },
      }),
    );
    const probot = new Probot({ appId: 4242, privateKey, Octokit, logLevel: "fatal" });
    const repository = fake.addRepo({ owner: "octo-org", name: "api", ownerType: "Organization" });
    const pullRequest = fake.addPullRequest({
      files: [{ path: "x.ts", base: "1\n", head: "2\n" }],
    });
    const octokit = (await probot.auth(repository.installationId)) as unknown as InstanceType<
      typeof ProbotOctokit
    >;
    await octokit.rest.issues.createComment({
      owner: "octo-org",
      repo: "api",
      issue_number: pullRequest.number,
      body: "hello",
    });
    const tarball = await octokit.request("GET /repos/{owner}/{repo}/tarball/{ref}", {
      owner: "octo-org",
      repo: "api",
      ref: pullRequest.headSha,
      request: { parseSuccessResponseBody: false },
    });
    const bytes = Buffer.from(await new Response(tarball.data as ReadableStream).arrayBuffer());
    expect([...bytes.subarray(0, 2)]).toEqual([0x1f, 0x8b]); // the gzip archive, as it came
    expect(tarball.url).toContain("/_codeload/octo-org/api/legacy.tar.gz/");
    expect(sent).toEqual([
      `${fake.apiUrl}/app/installations/${repository.installationId}/access_tokens`,
      `${fake.apiUrl}/repos/octo-org/api/issues/${pullRequest.number}/comments`,
      `${fake.apiUrl}/repos/octo-org/api/tarball/${pullRequest.headSha}`,
    ]);
    expect(fake.comments(pullRequest)).toMatchObject([{ body: "hello" }]);
  } finally {
    nodeFetch.close();
    await fake.close();
  }
});
