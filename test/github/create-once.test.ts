import { retry } from "@octokit/plugin-retry";
import { Octokit } from "@octokit/rest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createOnce,
  createsAnew,
  isUnconfirmed,
  noBlindCreateRetries,
} from "../../src/github/create-once.js";
import { type FakeGitHub, startFakeGitHub } from "../fakes/fake-github/index.js";

const error = (status?: number) =>
  Object.assign(new Error("x"), status === undefined ? {} : { status });

describe("createOnce", () => {
  it("adopts what an unconfirmed create made instead of sending it again", async () => {
    let sends = 0;
    const made = await createOnce(
      async () => {
        sends++;
        throw error(502);
      },
      async () => 41,
      { attempts: 3, wait: async () => undefined },
    );
    expect([made, sends]).toEqual([41, 1]);
  });

  it("sends again only when the look found nothing, at most `attempts` times in all", async () => {
    let sends = 0;
    await expect(
      createOnce(
        async () => {
          sends++;
          throw error();
        },
        async () => null,
        { attempts: 3, wait: async () => undefined },
      ),
    ).rejects.toThrow("x");
    expect(sends).toBe(3);
  });

  it("never looks or sends again after a refusal: a 4xx created nothing", async () => {
    let looks = 0;
    await expect(
      createOnce(
        async () => {
          throw error(422);
        },
        async () => {
          looks++;
          return 1;
        },
      ),
    ).rejects.toMatchObject({ status: 422 });
    expect(looks).toBe(0);
    expect([isUnconfirmed(error(500)), isUnconfirmed(error(404)), isUnconfirmed(error())]).toEqual([
      true,
      false,
      true,
    ]);
  });

  it("names the requests that create anew: comments, reviews, replies, check runs, not reactions or edits", () => {
    expect(createsAnew("POST", "/repos/{owner}/{repo}/issues/{issue_number}/comments")).toBe(true);
    expect(createsAnew("POST", "http://127.0.0.1:1/api/v3/repos/o/r/pulls/3/reviews")).toBe(true);
    expect(createsAnew("POST", "/repos/o/r/pulls/3/comments/9/replies")).toBe(true);
    expect(createsAnew("POST", "/repos/o/r/check-runs")).toBe(true);
    expect(createsAnew("POST", "/repos/o/r/issues/comments/9/reactions")).toBe(false);
    expect(createsAnew("PATCH", "/repos/o/r/issues/comments/9")).toBe(false);
    expect(createsAnew("POST", "/graphql")).toBe(false);
  });
});

describe("noBlindCreateRetries, with Octokit's own retries on", () => {
  let github: FakeGitHub;
  beforeAll(async () => {
    github = await startFakeGitHub({ appId: 1, appSlug: "gadfly" });
    github.addRepo({ owner: "octo-org", name: "api" });
  });
  afterAll(() => github.close());

  // Octokit's retry plugin as Probot's client carries it (a 5xx retried), at once here.
  const client = (plugins: ReturnType<typeof noBlindCreateRetries>[]) => {
    const Retrying = Octokit.plugin(retry, ...plugins);
    return new Retrying({
      baseUrl: github.apiUrl,
      auth: "test-token",
      retry: { retryAfterBaseValue: 1 },
      log: { debug() {}, info() {}, warn() {}, error() {} },
    });
  };

  it("posts twice when GitHub creates the comment and answers 502, unless the plugin is on", async () => {
    for (const [plugins, expected] of [
      [[], 2],
      [[noBlindCreateRetries()], 1],
    ] as const) {
      const pr = github.addPullRequest({
        owner: "octo-org",
        repo: "api",
        files: [{ path: "a", base: "a\n", head: "b\n" }],
      });
      github.failAfterDoingNext("POST", `/repos/octo-org/api/issues/${pr.number}/comments`);
      const octokit = client([...plugins]);
      await octokit.rest.issues
        .createComment({ owner: "octo-org", repo: "api", issue_number: pr.number, body: "hello" })
        .catch(() => undefined);
      expect(github.comments(pr)).toHaveLength(expected);
    }
  });
});
