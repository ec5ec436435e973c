import type { PullRequestSnapshot } from "../types.js";

/** The short pull-request form check runs and check suites carry. */
export function pullRequestReferenceJson(
  pullRequest: PullRequestSnapshot,
): Record<string, unknown> {
  const { repository } = pullRequest;
  const repositoryReference = {
    id: repository.id,
    url: `${repository.urls.api}/repos/${repository.fullName}`,
    name: repository.name,
  };
  return {
    url: `${repository.urls.api}/repos/${repository.fullName}/pulls/${pullRequest.number}`,
    id: pullRequest.id,
    number: pullRequest.number,
    head: { ref: pullRequest.headRef, sha: pullRequest.headSha, repo: repositoryReference },
    base: { ref: pullRequest.baseRef, sha: pullRequest.baseSha, repo: repositoryReference },
  };
}
