import type { RepositoryRecord, UserRecord } from "./types.js";
import type { AuthorAssociation } from "./views/comment-json.js";

/** How GitHub labels a user's relation to a repository on comments. */
export function authorAssociation(
  repository: RepositoryRecord,
  user: UserRecord,
): AuthorAssociation {
  if (user.id === repository.owner.id) return "OWNER";
  const permission = repository.collaborators.get(user.login.toLowerCase());
  if (permission !== undefined && permission !== "none") return "COLLABORATOR";
  const authoredPullRequest = [...repository.pullRequests.values()].some(
    (pullRequest) => pullRequest.user.id === user.id,
  );
  return authoredPullRequest ? "CONTRIBUTOR" : "NONE";
}
