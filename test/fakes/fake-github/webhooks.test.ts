import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { verify } from "@octokit/webhooks-methods";
import { createNodeMiddleware, Probot } from "probot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  checkRunRerequestedEvent,
  deliver,
  type FakeGitHub,
  issueCommentEvent,
  type PullRequestSnapshot,
  pullRequestEvent,
  signWebhook,
  startFakeGitHub,
} from "./index.js";

let fake: FakeGitHub;
let pullRequest: PullRequestSnapshot;

beforeAll(async () => {
  fake = await startFakeGitHub({ appId: 77 });
  fake.addRepo({ owner: "octo-org", name: "api", ownerType: "Organization", installationId: 555 });
  pullRequest = fake.addPullRequest({
    title: "Add rate limiting",
    user: "dana",
    files: [{ path: "src/limit.ts", base: "a\n", head: "b\n" }],
  });
});
afterAll(() => fake.close());

describe("webhook payloads", () => {
  it("adapts a real pull_request example to the fake's repository and PR", () => {
    const opened = pullRequestEvent("opened", pullRequest);
    expect(opened.name).toBe("pull_request");
    expect(opened.payload).toMatchObject({
      action: "opened",
      number: pullRequest.number,
      installation: { id: 555 },
      repository: {
        full_name: "octo-org/api",
        default_branch: "main",
        owner: { login: "octo-org" },
      },
      organization: { login: "octo-org" },
      sender: { login: "dana" },
      pull_request: {
        title: "Add rate limiting",
        head: { sha: pullRequest.headSha },
        base: { sha: pullRequest.baseSha },
      },
    });
    const pushed = fake.pushCommit(pullRequest, [{ path: "src/limit.ts", content: "c\n" }]);
    const synchronize = pullRequestEvent("synchronize", pushed, { before: pullRequest.headSha });
    expect(synchronize.payload).toMatchObject({
      before: pullRequest.headSha,
      after: pushed.headSha,
    });
    expect(synchronize.id).not.toBe(opened.id);
  });

  it("builds issue_comment and check_run.rerequested deliveries", () => {
    const comment = fake.addComment(pullRequest, { body: "@gadfly review", user: "erin" });
    const event = issueCommentEvent({ pullRequest, comment, association: "COLLABORATOR" });
    expect(event.payload).toMatchObject({
      action: "created",
      installation: { id: 555 },
      issue: {
        number: pullRequest.number,
        pull_request: { url: expect.stringContaining(`/pulls/${pullRequest.number}`) },
      },
      comment: {
        id: comment.id,
        body: "@gadfly review",
        user: { login: "erin", type: "User" },
        author_association: "COLLABORATOR",
      },
      sender: { login: "erin" },
    });
    const rerequested = checkRunRerequestedEvent(
      pullRequest,
      { id: 9, name: "Gadfly", headSha: pullRequest.headSha },
      fake.app,
    );
    expect(rerequested.payload).toMatchObject({
      action: "rerequested",
      check_run: {
        id: 9,
        name: "Gadfly",
        head_sha: pullRequest.headSha,
        app: { id: 77, slug: "gadfly" },
        pull_requests: [{ number: pullRequest.number }],
      },
    });
  });

  it("signs the raw body with HMAC-SHA256", async () => {
    const signed = signWebhook(pullRequestEvent("opened", pullRequest), "s3cret");
    const signature = signed.headers["x-hub-signature-256"] ?? "";
    expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(await verify("s3cret", signed.body, signature)).toBe(true);
    expect(await verify("other", signed.body, signature)).toBe(false);
    expect(signed.headers).toMatchObject({
      "x-github-event": "pull_request",
      "content-type": "application/json",
    });
  });
});

describe("deliver", () => {
  let server: Server;
  let url: string;
  const received: { name: string; headSha: unknown }[] = [];

  beforeAll(async () => {
    const probot = new Probot({ githubToken: "unused", secret: "s3cret", logLevel: "fatal" });
    const middleware = await createNodeMiddleware(
      (app) => {
        app.onAny(async (context) => {
          const payload = context.payload as { pull_request?: { head?: { sha?: unknown } } };
          received.push({ name: context.name, headSha: payload.pull_request?.head?.sha });
        });
      },
      { probot },
    );
    server = createServer((request, response) => {
      void middleware(request, response, () => {
        response.writeHead(404).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/github/webhooks`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("POSTs a delivery Probot verifies and dispatches", async () => {
    const current = fake.pullRequest(pullRequest);
    const response = await deliver(url, pullRequestEvent("opened", current), "s3cret");
    expect(response.status).toBe(200);
    expect(received).toEqual([{ name: "pull_request", headSha: current.headSha }]);
  });

  it("is refused by Probot when signed with another secret", async () => {
    const response = await deliver(url, pullRequestEvent("opened", pullRequest), "wrong");
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(received).toHaveLength(1);
  });

  it("never leaves the loopback interface", async () => {
    await expect(
      deliver("http://example.com/hook", pullRequestEvent("opened", pullRequest), "s"),
    ).rejects.toThrow(/loopback/);
  });
});
