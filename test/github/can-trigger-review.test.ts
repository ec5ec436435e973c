import { ProbotOctokit } from "probot";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  canTriggerReview,
  type TriggerDecision,
  type TriggerRequest,
} from "../../src/github/can-trigger-review.js";
import type { GitHubClient } from "../../src/github/github-client.js";
import { PERMISSION_TTL_MS, PermissionCache } from "../../src/github/permission-cache.js";
import { PermissionCheckError } from "../../src/github/permission-check-error.js";
import { type FakeGitHub, startFakeGitHub } from "../fakes/fake-github/index.js";
import { probotCredentials } from "../fakes/fake-github/probot-credentials.js";
import { FakeClock } from "../helpers/fake-clock.js";

const REPO = { owner: "octo-org", repo: "api" };
const PERMISSION_PATH = "/repos/octo-org/api/collaborators/*/permission";

let github: FakeGitHub;
let octokit: GitHubClient;
let clock: FakeClock;
let cache: PermissionCache<TriggerDecision>;

const request = (login: string, type = "User"): TriggerRequest => ({
  installationId: 7,
  repo: REPO,
  author: { login, type },
  botLogin: "gadfly[bot]",
});
const lookUps = () => github.requests({ method: "GET", path: PERMISSION_PATH }).length;

beforeAll(async () => {
  github = await startFakeGitHub({ appId: 1, appSlug: "gadfly" });
  github.addRepo({ owner: "octo-org", name: "api", ownerType: "Organization" });
  for (const [login, role] of [
    ["reader", "read"],
    ["triager", "triage"],
    ["writer", "write"],
    ["maintainer", "maintain"],
    ["admin", "admin"],
  ] as const) {
    github.addCollaborator(login, role, REPO);
  }
  const { Octokit } = probotCredentials(github.apiUrl);
  octokit = new Octokit({ auth: "installation-token" }) as GitHubClient;
});
afterAll(async () => {
  await github.close();
});
beforeEach(() => {
  clock = new FakeClock();
  cache = new PermissionCache<TriggerDecision>(clock);
});

describe("canTriggerReview", () => {
  it("lets write, maintain and admin collaborators start a round, whatever the comment's association", async () => {
    for (const login of ["writer", "maintainer", "admin"]) {
      expect(await canTriggerReview(octokit, request(login), cache)).toEqual({ allowed: true });
    }
  });

  it("turns away read and triage members (an org MEMBER may only read), non-collaborators and bots", async () => {
    expect(await canTriggerReview(octokit, request("reader"), cache)).toEqual({
      allowed: false,
      reason: "reader has read permission",
    });
    expect(await canTriggerReview(octokit, request("triager"), cache)).toEqual({
      allowed: false,
      reason: "triager has triage permission",
    });
    expect(await canTriggerReview(octokit, request("stranger"), cache)).toEqual({
      allowed: false,
      reason: "stranger has none permission",
    });
    expect(await canTriggerReview(octokit, request("-not-a-login-"), cache)).toEqual({
      allowed: false,
      reason: "-not-a-login- is not a collaborator",
    });
    const before = lookUps();
    expect((await canTriggerReview(octokit, request("renovate[bot]", "Bot"), cache)).allowed).toBe(
      false,
    );
    expect((await canTriggerReview(octokit, request("Gadfly[bot]"), cache)).allowed).toBe(false);
    expect(lookUps()).toBe(before);
  });

  it("asks the API once within the TTL, and again after it", async () => {
    const before = lookUps();
    await canTriggerReview(octokit, request("writer"), cache);
    clock.advance(PERMISSION_TTL_MS - 1);
    expect(await canTriggerReview(octokit, request("WRITER"), cache)).toEqual({ allowed: true });
    expect(lookUps()).toBe(before + 1);

    // Write access revoked: still trusted until the entry expires, then refused.
    github.addCollaborator("writer", "read", REPO);
    clock.advance(1);
    expect(await canTriggerReview(octokit, request("writer"), cache)).toEqual({
      allowed: false,
      reason: "writer has read permission",
    });
    expect(lookUps()).toBe(before + 2);
    github.addCollaborator("writer", "write", REPO);
  });

  it("keys the cache by installation and repository too", async () => {
    const before = lookUps();
    await canTriggerReview(octokit, request("admin"), cache);
    await canTriggerReview(octokit, { ...request("admin"), installationId: 8 }, cache);
    expect(lookUps()).toBe(before + 2);
  });

  it("reports an API error, grants nothing and caches nothing", async () => {
    github.failNext("GET", PERMISSION_PATH, 502);
    await expect(canTriggerReview(octokit, request("maintainer"), cache)).rejects.toThrow(
      "could not check maintainer's permission on octo-org/api (HTTP 502): no round started",
    );
    github.failNext("GET", PERMISSION_PATH, 403);
    await expect(canTriggerReview(octokit, request("maintainer"), cache)).rejects.toBeInstanceOf(
      PermissionCheckError,
    );
    expect(cache.size).toBe(0);
    expect(await canTriggerReview(octokit, request("maintainer"), cache)).toEqual({
      allowed: true,
    });
  });
});

describe("canTriggerReview with Probot's own retries (as in production)", () => {
  it("a passing server error is retried and the answer used", async () => {
    const Retrying = ProbotOctokit.defaults((options: Record<string, unknown>) => ({
      ...options,
      baseUrl: github.apiUrl,
      throttle: { enabled: false },
      retry: { enabled: true, retryAfterBaseValue: 1 },
    }));
    const retrying = new Retrying({ auth: "installation-token" }) as GitHubClient;
    const before = lookUps();
    github.failNext("GET", PERMISSION_PATH, 502);
    expect(await canTriggerReview(retrying, request("admin"), cache)).toEqual({ allowed: true });
    expect(lookUps()).toBe(before + 2);
  });
});

describe("PermissionCache", () => {
  it("holds at most maxEntries, dropping the oldest", () => {
    const small = new PermissionCache<string>(clock, 2);
    small.set("a", "1");
    small.set("b", "2");
    small.set("c", "3");
    expect(small.size).toBe(2);
    expect([small.get("a"), small.get("b"), small.get("c")]).toEqual([undefined, "2", "3"]);
  });
});
