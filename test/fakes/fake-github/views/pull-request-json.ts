import type { PullRequestSnapshot } from "../types.js";
import { labelJson } from "./label-json.js";
import { repositoryJson } from "./repository-json.js";
import { userJson } from "./user-json.js";

/** A pull request as `GET /repos/{owner}/{repo}/pulls/{number}` and webhooks show it. */
export function pullRequestJson(pullRequest: PullRequestSnapshot): Record<string, unknown> {
  const { repository } = pullRequest;
  const { urls } = repository;
  const apiUrl = `${urls.api}/repos/${repository.fullName}`;
  const baseRepository = repositoryJson(repository);
  // A deleted fork: GitHub keeps the PR and its commits but shows no head repository.
  const headRepository =
    pullRequest.headRepository === null
      ? null
      : pullRequest.headRepository === undefined
        ? baseRepository
        : {
            ...baseRepository,
            id: repository.id + 1_000_000,
            name: pullRequest.headRepository.name,
            full_name: `${pullRequest.headRepository.owner}/${pullRequest.headRepository.name}`,
            owner: userJson(
              {
                login: pullRequest.headRepository.owner,
                id: repository.id + 2_000_000,
                type: "User",
              },
              urls,
            ),
            fork: true,
          };
  const headOwner =
    pullRequest.headRepository === null
      ? pullRequest.user.login
      : (pullRequest.headRepository?.owner ?? repository.owner.login);
  const additions = pullRequest.files.reduce((total, file) => total + file.additions, 0);
  const deletions = pullRequest.files.reduce((total, file) => total + file.deletions, 0);
  return {
    url: `${apiUrl}/pulls/${pullRequest.number}`,
    id: pullRequest.id,
    node_id: Buffer.from(`011:PullRequest${pullRequest.id}`).toString("base64"),
    html_url: `${urls.html}/${repository.fullName}/pull/${pullRequest.number}`,
    diff_url: `${urls.html}/${repository.fullName}/pull/${pullRequest.number}.diff`,
    patch_url: `${urls.html}/${repository.fullName}/pull/${pullRequest.number}.patch`,
    issue_url: `${apiUrl}/issues/${pullRequest.number}`,
    comments_url: `${apiUrl}/issues/${pullRequest.number}/comments`,
    review_comments_url: `${apiUrl}/pulls/${pullRequest.number}/comments`,
    statuses_url: `${apiUrl}/statuses/${pullRequest.headSha}`,
    number: pullRequest.number,
    state: pullRequest.state,
    locked: false,
    title: pullRequest.title,
    user: userJson(pullRequest.user, urls),
    body: pullRequest.body,
    labels: pullRequest.labels.map((name) => labelJson(repository, name)),
    created_at: pullRequest.createdAt,
    updated_at: pullRequest.updatedAt,
    closed_at: pullRequest.state === "closed" ? pullRequest.updatedAt : null,
    merged_at: pullRequest.merged ? pullRequest.updatedAt : null,
    merge_commit_sha: null,
    assignee: null,
    assignees: [],
    requested_reviewers: [],
    draft: pullRequest.draft,
    head: {
      label: `${headOwner}:${pullRequest.headRef}`,
      ref: pullRequest.headRef,
      sha: pullRequest.headSha,
      user: headRepository?.owner ?? userJson(pullRequest.user, urls),
      repo: headRepository,
    },
    base: {
      label: `${repository.owner.login}:${pullRequest.baseRef}`,
      ref: pullRequest.baseRef,
      sha: pullRequest.baseSha,
      user: baseRepository.owner,
      repo: baseRepository,
    },
    author_association: "CONTRIBUTOR",
    merged: pullRequest.merged,
    mergeable: null,
    comments: 0,
    review_comments: 0,
    commits: 1,
    additions,
    deletions,
    changed_files: pullRequest.files.length,
  };
}
