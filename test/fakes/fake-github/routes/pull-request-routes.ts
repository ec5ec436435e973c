import { githubError } from "../github-error.js";
import { paginate } from "../paginate.js";
import { type RepositoryRouteContext, repositoryRoute } from "../repository-route.js";
import type { Route, RouteResponse } from "../route.js";
import type { FileChange, PullRequestRecord } from "../types.js";
import { pullRequestJson } from "../views/pull-request-json.js";

// GitHub's limits: the files list stops at 3000 entries, and the diff media
// type is refused (406) past 300 files or 20,000 lines.
const maximumListedFiles = 3000;
const maximumDiffFiles = 300;
const maximumDiffLines = 20_000;

/** Pull requests: one (JSON or diff), the list, their files, those of a commit. */
export const pullRequestRoutes: Route[] = [
  repositoryRoute("GET", "/repos/{owner}/{repo}/pulls/{pull_number}", (context) =>
    withPullRequest(context, (pullRequest) => {
      const accept = String(context.headers.accept ?? "");
      if (/application\/vnd\.github(\.v3)?\.diff/.test(accept)) return diffResponse(pullRequest);
      return { status: 200, json: pullJson(context, pullRequest) };
    }),
  ),
  repositoryRoute("GET", "/repos/{owner}/{repo}/pulls", (context) => {
    const state = context.query.get("state") ?? "open";
    const head = context.query.get("head");
    const pulls = [...context.repository.pullRequests.values()]
      .filter((pullRequest) => state === "all" || pullRequest.state === state)
      .filter(
        (pullRequest) =>
          head === null ||
          head ===
            `${pullRequest.headRepository?.owner ?? context.repository.owner.login}:${pullRequest.headRef}`,
      )
      .sort((left, right) => right.number - left.number);
    const page = paginate(pulls, context);
    return {
      status: 200,
      json: page.items.map((pullRequest) => pullJson(context, pullRequest)),
      headers: page.headers,
    };
  }),
  repositoryRoute("GET", "/repos/{owner}/{repo}/pulls/{pull_number}/files", (context) =>
    withPullRequest(context, (pullRequest) => {
      const page = paginate(pullRequest.files.slice(0, maximumListedFiles), context);
      return {
        status: 200,
        json: page.items.map((file) => fileJson(context, pullRequest.headSha, file)),
        headers: page.headers,
      };
    }),
  ),
  repositoryRoute("GET", "/repos/{owner}/{repo}/commits/{commit_sha}/pulls", (context) => {
    const sha = context.params.commit_sha ?? "";
    const pulls = [...context.repository.pullRequests.values()].filter((pullRequest) =>
      pullRequest.headHistory.some((headSha) => headSha.startsWith(sha)),
    );
    const page = paginate(pulls, context);
    return {
      status: 200,
      json: page.items.map((pullRequest) => pullJson(context, pullRequest)),
      headers: page.headers,
    };
  }),
];

export function withPullRequest(
  context: RepositoryRouteContext,
  handle: (pullRequest: PullRequestRecord) => RouteResponse,
): RouteResponse {
  const number = Number(context.params.pull_number ?? context.params.issue_number);
  const pullRequest = context.repository.pullRequests.get(number);
  return pullRequest === undefined ? githubError(404, "Not Found") : handle(pullRequest);
}

function pullJson(context: RepositoryRouteContext, pullRequest: PullRequestRecord) {
  return pullRequestJson(context.state.pullRequestSnapshot(context.repository, pullRequest));
}

function diffResponse(pullRequest: PullRequestRecord): RouteResponse {
  const lines = pullRequest.diff.split("\n").length - 1;
  if (pullRequest.files.length > maximumDiffFiles || lines > maximumDiffLines) {
    const limit =
      pullRequest.files.length > maximumDiffFiles
        ? `files (${maximumDiffFiles})`
        : `lines (${maximumDiffLines})`;
    return githubError(
      406,
      `Sorry, the diff exceeded the maximum number of ${limit}. Consider using 'List pull requests files' API or locally cloning the repository instead.`,
      { errors: [{ resource: "PullRequest", field: "diff", code: "too_large" }] },
    );
  }
  return {
    status: 200,
    text: pullRequest.diff,
    headers: { "content-type": "application/vnd.github.diff; charset=utf-8" },
  };
}

/** A changed file as GitHub lists it, its URLs at `headSha` (a PR's files, a comparison's). */
export function fileJson(context: RepositoryRouteContext, headSha: string, file: FileChange) {
  const { urls } = context.state;
  const fullName = `${context.repository.owner.login}/${context.repository.name}`;
  const encodedPath = file.filename.split("/").map(encodeURIComponent).join("/");
  return {
    sha: file.sha,
    filename: file.filename,
    status: file.status,
    additions: file.additions,
    deletions: file.deletions,
    changes: file.changes,
    blob_url: `${urls.html}/${fullName}/blob/${headSha}/${encodedPath}`,
    raw_url: `${urls.html}/${fullName}/raw/${headSha}/${encodedPath}`,
    contents_url: `${urls.api}/repos/${fullName}/contents/${encodedPath}?ref=${headSha}`,
    ...(file.patch === undefined ? {} : { patch: file.patch }),
    ...(file.previousFilename === undefined ? {} : { previous_filename: file.previousFilename }),
  };
}
