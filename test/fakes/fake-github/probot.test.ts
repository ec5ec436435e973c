import { Probot } from "probot";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type FakeGitHub, pullRequestEvent, startFakeGitHub } from "./index.js";
import { probotCredentials } from "./probot-credentials.js";

let fake: FakeGitHub;
let probot: Probot;

beforeAll(async () => {
  fake = await startFakeGitHub({ appId: 4242, appSlug: "gadfly", strictAuth: true });
  const { privateKey, Octokit } = probotCredentials(fake.apiUrl);
  probot = new Probot({
    appId: 4242,
    privateKey,
    secret: "webhook-secret",
    Octokit,
    logLevel: "fatal",
  });
});
afterAll(() => fake.close());

it("authenticates as the app with its JWT and exchanges it for an installation token", async () => {
  const repository = fake.addRepo({ owner: "octo-org", name: "api", ownerType: "Organization" });
  const appOctokit = await probot.auth();
  const { data: app } = await appOctokit.rest.apps.getAuthenticated();
  expect(app?.slug).toBe("gadfly");

  const installationOctokit = await probot.auth(repository.installationId);
  const pullRequest = fake.addPullRequest({ files: [{ path: "x.ts", base: "1\n", head: "2\n" }] });
  await installationOctokit.rest.issues.createComment({
    owner: "octo-org",
    repo: "api",
    issue_number: pullRequest.number,
    body: "hello",
  });
  expect(fake.issuedTokens.map((token) => token.installationId)).toEqual([
    repository.installationId,
  ]);
  expect(
    fake.requests({ method: "POST", path: "/app/installations/*/access_tokens" }),
  ).toMatchObject([{ auth: "jwt", status: 201 }]);
  expect(fake.comments(pullRequest)).toMatchObject([
    { body: "hello", user: { login: "gadfly[bot]", type: "Bot" } },
  ]);
  expect(fake.validationErrors).toEqual([]);
});

it("lets an app loaded into Probot answer a webhook against the fake", async () => {
  fake.addRepo({ owner: "carol", name: "tool" });
  const pullRequest = fake.addPullRequest({
    owner: "carol",
    repo: "tool",
    files: [{ path: "main.go", base: "package main\n", head: "package main\n\nfunc main() {}\n" }],
  });
  await probot.load((app) => {
    app.on("pull_request.opened", async (context) => {
      const files = await context.octokit.rest.pulls.listFiles(context.pullRequest());
      await context.octokit.rest.issues.createComment(
        context.issue({
          body: `saw ${files.data.length} file(s) at ${context.payload.pull_request.head.sha}`,
        }),
      );
    });
  });
  await probot.receive(pullRequestEvent("opened", pullRequest) as Parameters<Probot["receive"]>[0]);
  expect(fake.comments(pullRequest).map((comment) => comment.body)).toEqual([
    `saw 1 file(s) at ${pullRequest.headSha}`,
  ]);
  expect(
    fake
      .requests({ path: "/repos/carol/tool/**" })
      .every((request) => request.auth === "installation"),
  ).toBe(true);
});
