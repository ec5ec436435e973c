import type { GitHubClient, RepoRef } from "./github-client.js";

const WRITERS = new Set(["OWNER", "MEMBER", "COLLABORATOR"]);
const WRITE_PERMISSIONS = new Set(["admin", "maintain", "write"]);

export interface CommentAuthor {
  login: string;
  type: string;
  /** `author_association` of the comment. */
  association: string;
}

export type TriggerDecision = { allowed: true } | { allowed: false; reason: string };

/**
 * Only people who can write to the repository may start a round: our own
 * comments and other bots never do, whatever they say.
 */
export async function canTriggerReview(
  octokit: GitHubClient,
  repo: RepoRef,
  author: CommentAuthor,
  botLogin: string,
): Promise<TriggerDecision> {
  if (author.login.toLowerCase() === botLogin.toLowerCase()) {
    return { allowed: false, reason: "our own comment" };
  }
  if (author.type === "Bot" || author.login.endsWith("[bot]")) {
    return { allowed: false, reason: `bot ${author.login}` };
  }
  if (WRITERS.has(author.association)) return { allowed: true };
  try {
    const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({
      ...repo,
      username: author.login,
    });
    if (WRITE_PERMISSIONS.has(data.permission) || WRITE_PERMISSIONS.has(data.role_name)) {
      return { allowed: true };
    }
    return { allowed: false, reason: `${author.login} has ${data.permission} permission` };
  } catch (error) {
    if ((error as { status?: number }).status === 404) {
      return { allowed: false, reason: `${author.login} is not a collaborator` };
    }
    throw error;
  }
}
