import { canTriggerReview, type TriggerDecision } from "./can-trigger-review.js";
import type { GitHubClient, RepoRef } from "./github-client.js";
import type { PermissionCache } from "./permission-cache.js";

export interface PullRequestAuthor {
  installationId: number;
  repo: RepoRef;
  /** The pull request's `user` as GitHub reports it (null: a deleted account, a ghost). */
  author: { login: string; type: string } | null;
  botLogin: string;
}

/**
 * Whether the author of a pull request can write to its repository, by the same permission
 * API and cache as `@gadfly review` (canTriggerReview): what decides whether their pushes are
 * held to the reader limits. Bots and deleted accounts cannot; a failed look-up is thrown
 * (the delivery is answered 500 and redelivered), never taken for write access.
 */
export async function authorCanWrite(
  octokit: GitHubClient,
  request: PullRequestAuthor,
  permissions: PermissionCache<TriggerDecision>,
): Promise<boolean> {
  if (request.author === null) return false;
  const decision = await canTriggerReview(
    octokit,
    {
      installationId: request.installationId,
      repo: request.repo,
      author: request.author,
      botLogin: request.botLogin,
    },
    permissions,
  );
  return decision.allowed;
}
