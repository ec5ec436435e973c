import { Octokit } from "@octokit/rest";
import { ProbotOctokit } from "probot";
import { describe, expect, it } from "vitest";
import { countGitHubRequests, githubRequestKind } from "../../src/server/count-github-requests.js";
import { createGadflyMetrics } from "../../src/server/gadfly-metrics.js";

/** GitHub without a network: 201 for creates, 404 for one PR, 200 otherwise. */
const fakeFetch: typeof fetch = async (input, init) => {
  const url = String(input instanceof Request ? input.url : input);
  const status = url.endsWith("/pulls/404") ? 404 : init?.method === "POST" ? 201 : 200;
  return new Response(JSON.stringify(status === 404 ? { message: "Not Found" } : { id: 1 }), {
    status,
    headers: { "content-type": "application/json" },
  });
};

describe("countGitHubRequests", () => {
  it("counts requests by route template and outcome", async () => {
    const metrics = createGadflyMetrics();
    const Counted = Octokit.plugin(countGitHubRequests(metrics));
    const quiet = { debug() {}, info() {}, warn() {}, error() {} };
    const octokit = new Counted({ request: { fetch: fakeFetch }, log: quiet });
    await octokit.rest.issues.createComment({
      owner: "octo-org",
      repo: "widgets",
      issue_number: 7,
      body: "hi",
    });
    await octokit.rest.issues.createComment({
      owner: "octo-org",
      repo: "gears",
      issue_number: 8,
      body: "hi",
    });
    await expect(
      octokit.rest.pulls.get({ owner: "octo-org", repo: "widgets", pull_number: 404 }),
    ).rejects.toThrow();
    const text = await metrics.render();
    expect(text).toContain(
      'gadfly_github_requests_total{kind="POST /repos/{owner}/{repo}/issues/{issue_number}/comments",outcome="ok"} 2',
    );
    expect(text).toContain(
      'gadfly_github_requests_total{kind="GET /repos/{owner}/{repo}/pulls/{pull_number}",outcome="error"} 1',
    );
  });

  it("fits Probot's Octokit as a plugin", () => {
    const Counted = ProbotOctokit.plugin(countGitHubRequests(createGadflyMetrics()));
    expect(typeof Counted).toBe("function");
  });
});

describe("githubRequestKind", () => {
  it("brings expanded, absolute and GHE URLs back to a template", () => {
    expect(githubRequestKind("get", "/repos/{owner}/{repo}/pulls/{pull_number}")).toBe(
      "GET /repos/{owner}/{repo}/pulls/{pull_number}",
    );
    expect(
      githubRequestKind(
        "PATCH",
        "http://127.0.0.1:3000/api/v3/repos/octo-org/widgets/issues/comments/9000000001?x=1",
      ),
    ).toBe("PATCH /repos/{owner}/{repo}/issues/comments/{id}");
    expect(
      githubRequestKind(
        "GET",
        "/repos/a/b/commits/0123456789abcdef0123456789abcdef01234567/check-runs",
      ),
    ).toBe("GET /repos/{owner}/{repo}/commits/{sha}/check-runs");
    expect(githubRequestKind(undefined, undefined)).toBe("GET /");
  });
});
