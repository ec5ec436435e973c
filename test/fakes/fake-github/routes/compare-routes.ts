import { diffTrees } from "../diff-trees.js";
import { githubError } from "../github-error.js";
import { ancestry } from "../merge-base.js";
import { paginate } from "../paginate.js";
import { type RepositoryRouteContext, repositoryRoute } from "../repository-route.js";
import type { Route, RouteResponse } from "../route.js";
import type { CommitRecord } from "../types.js";
import { fileJson } from "./pull-request-routes.js";

// GitHub's compare lists at most 300 files for the whole comparison (on the first page only).
const maximumComparedFiles = 300;

/** Comparing two commits, three-dot: the head against the merge base, with the status GitHub gives. */
export const compareRoutes: Route[] = [
  repositoryRoute("GET", "/repos/{owner}/{repo}/compare/{basehead}", compareCommits),
];

function compareCommits(context: RepositoryRouteContext): RouteResponse {
  const { state, repository } = context;
  const parts = (context.params.basehead ?? "").split("...");
  if (parts.length !== 2) return githubError(404, "Not Found");
  const base = state.resolveRef(repository, parts[0] ?? "");
  const head = state.resolveRef(repository, parts[1] ?? "");
  if (base === undefined || head === undefined) return githubError(404, "Not Found");
  const headAncestors = ancestry(repository, head.sha);
  const baseAncestors = ancestry(repository, base.sha);
  const mergeBaseSha = baseAncestors.order.find((sha) => headAncestors.set.has(sha));
  if (mergeBaseSha === undefined) {
    return githubError(404, `No common ancestor between ${parts[0]} and ${parts[1]}.`);
  }
  const mergeBase = repository.commits.get(mergeBaseSha) as CommitRecord;
  const aheadOnly = headAncestors.order.filter((sha) => !baseAncestors.set.has(sha)).reverse();
  const behindBy = baseAncestors.order.filter((sha) => !headAncestors.set.has(sha)).length;
  const status =
    base.sha === head.sha
      ? "identical"
      : behindBy === 0
        ? "ahead"
        : aheadOnly.length === 0
          ? "behind"
          : "diverged";
  const files = diffTrees(mergeBase.tree, head.tree, new Map()).slice(0, maximumComparedFiles);
  const page = paginate(aheadOnly, context);
  const firstPage = (context.query.get("page") ?? "1") === "1";
  return {
    status: 200,
    headers: page.headers,
    json: {
      url: `${apiRepo(context)}/compare/${context.params.basehead}`,
      html_url: `${htmlRepo(context)}/compare/${context.params.basehead}`,
      permalink_url: `${htmlRepo(context)}/compare/${base.sha}...${head.sha}`,
      diff_url: `${htmlRepo(context)}/compare/${context.params.basehead}.diff`,
      patch_url: `${htmlRepo(context)}/compare/${context.params.basehead}.patch`,
      base_commit: commitJson(context, base),
      merge_base_commit: commitJson(context, mergeBase),
      status,
      ahead_by: aheadOnly.length,
      behind_by: behindBy,
      total_commits: aheadOnly.length,
      commits: page.items.map((sha) => commitJson(context, repository.commits.get(sha))),
      // Like GitHub: the files are listed on the first page of the commits only.
      ...(firstPage ? { files: files.map((file) => fileJson(context, head.sha, file)) } : {}),
    },
  };
}

const apiRepo = (context: RepositoryRouteContext) =>
  `${context.state.urls.api}/repos/${context.repository.owner.login}/${context.repository.name}`;
const htmlRepo = (context: RepositoryRouteContext) =>
  `${context.state.urls.html}/${context.repository.owner.login}/${context.repository.name}`;

/** The commit object GitHub's compare nests (the fields its description requires). */
function commitJson(context: RepositoryRouteContext, commit: CommitRecord | undefined) {
  const sha = commit?.sha ?? "";
  const person = { name: "Octo Cat", email: "octocat@example.com", date: "2026-01-01T00:00:00Z" };
  return {
    url: `${apiRepo(context)}/commits/${sha}`,
    sha,
    node_id: `C_${sha.slice(0, 12)}`,
    html_url: `${htmlRepo(context)}/commit/${sha}`,
    comments_url: `${apiRepo(context)}/commits/${sha}/comments`,
    commit: {
      url: `${apiRepo(context)}/git/commits/${sha}`,
      author: person,
      committer: person,
      message: commit?.message ?? "",
      comment_count: 0,
      tree: { sha: "0".repeat(40), url: `${apiRepo(context)}/git/trees/${"0".repeat(40)}` },
    },
    author: null,
    committer: null,
    parents: (commit?.parents ?? []).map((parent) => ({
      sha: parent,
      url: `${apiRepo(context)}/commits/${parent}`,
    })),
  };
}
