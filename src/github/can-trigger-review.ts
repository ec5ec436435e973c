import type { GitHubClient, RepoRef } from "./github-client.js";
import type { PermissionCache } from "./permission-cache.js";
import { PermissionCheckError } from "./permission-check-error.js";

/**
 * Repository permissions that may start a round. The API's `permission` is one of
 * admin, write, read, none (maintain reads as write there); `role_name` carries
 * the finer role (maintain, triage, a custom role's name).
 */
const WRITE_PERMISSIONS = new Set(["admin", "maintain", "write"]);

export interface CommentAuthor {
  login: string;
  type: string;
}

export type TriggerDecision = { allowed: true } | { allowed: false; reason: string };

export interface TriggerRequest {
  installationId: number;
  repo: RepoRef;
  author: CommentAuthor;
  botLogin: string;
}

/**
 * Only people who can write to the repository may start a round, as the
 * repository permission API says: `author_association` on the comment never
 * decides (MEMBER and COLLABORATOR include people with read access only). Our
 * own comments and other bots never start one, whatever they say. Answers are
 * cached per installation, repository and login (PermissionCache); errors are
 * retried by the client (Probot's Octokit retries server errors) and then
 * thrown, never cached and never taken for a permission.
 */
export async function canTriggerReview(
  octokit: GitHubClient,
  request: TriggerRequest,
  permissions: PermissionCache<TriggerDecision>,
): Promise<TriggerDecision> {
  const { author, repo } = request;
  if (author.login.toLowerCase() === request.botLogin.toLowerCase()) {
    return { allowed: false, reason: "our own comment" };
  }
  if (author.type === "Bot" || author.login.endsWith("[bot]")) {
    return { allowed: false, reason: `bot ${author.login}` };
  }
  const key = [request.installationId, repo.owner, repo.repo, author.login].join("/").toLowerCase();
  const cached = permissions.get(key);
  if (cached !== undefined) return cached;
  const decision = await lookUp(octokit, repo, author.login);
  permissions.set(key, decision);
  return decision;
}

async function lookUp(
  octokit: GitHubClient,
  repo: RepoRef,
  login: string,
): Promise<TriggerDecision> {
  try {
    const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({
      ...repo,
      username: login,
    });
    if (WRITE_PERMISSIONS.has(data.permission) || WRITE_PERMISSIONS.has(data.role_name)) {
      return { allowed: true };
    }
    return {
      allowed: false,
      reason: `${login} has ${data.role_name || data.permission} permission`,
    };
  } catch (error) {
    // GitHub's definite "no": the login is not a collaborator (or does not exist).
    if ((error as { status?: number }).status === 404) {
      return { allowed: false, reason: `${login} is not a collaborator` };
    }
    throw new PermissionCheckError(login, repo, error);
  }
}
