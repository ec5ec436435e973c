import type { Octokit } from "@octokit/rest";
import type { GadflyMetrics } from "./gadfly-metrics.js";

/**
 * An Octokit plugin counting every GitHub API request by its route template
 * and outcome, e.g. `ProbotOctokit.plugin(countGitHubRequests(metrics))`.
 * Routes, not URLs: the label set stays small whatever the repositories.
 */
export function countGitHubRequests(metrics: Pick<GadflyMetrics, "githubRequest">) {
  // Only the hook is used, so the plugin fits any Octokit: @octokit/rest's, core's, Probot's.
  return (octokit: Pick<Octokit, "hook">): void => {
    octokit.hook.after("request", (_response, options) => {
      metrics.githubRequest(githubRequestKind(options.method, options.url), "ok");
    });
    octokit.hook.error("request", (error, options) => {
      metrics.githubRequest(githubRequestKind(options.method, options.url), "error");
      throw error;
    });
  };
}

/**
 * `METHOD /route/{template}`. Octokit passes the template; a URL given
 * expanded (or absolute, or under GHE's /api/v3) is brought back to one.
 */
export function githubRequestKind(method: string | undefined, url: string | undefined): string {
  let path = (url ?? "").replace(/^[a-z]+:\/\/[^/]+/i, "").split("?")[0] ?? "";
  path = path.replace(/^\/api\/v3(?=\/)/, "");
  if (!path.includes("{")) {
    path = path
      .replace(/^\/repos\/[^/]+\/[^/]+/, "/repos/{owner}/{repo}")
      .replace(/\/[0-9a-f]{40}(?=\/|$)/gi, "/{sha}")
      .replace(/\/\d+(?=\/|$)/g, "/{id}");
  }
  return `${(method ?? "GET").toUpperCase()} ${path === "" ? "/" : path}`;
}
