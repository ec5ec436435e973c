/** The parts of a repository that tell two apart. */
interface RepositoryIdentity {
  id: number;
  full_name: string;
}

/** A pull request as `GET /repos/{owner}/{repo}/pulls/{number}` (and its webhooks) show it. */
export interface PullRequestRepositories {
  head: { repo: RepositoryIdentity | null };
  base: { repo: RepositoryIdentity };
}

/**
 * Whether the head of a pull request lives outside the base repository: then
 * someone without write access to it may have written every file. A null head
 * repository is a fork since deleted, still a fork. Either the id or the name
 * differing counts (names compared as GitHub does, without case): when in
 * doubt, it is a fork.
 */
export function isForkPullRequest(pull: PullRequestRepositories): boolean {
  const head = pull.head.repo;
  const base = pull.base.repo;
  if (head === null) return true;
  return head.id !== base.id || head.full_name.toLowerCase() !== base.full_name.toLowerCase();
}
