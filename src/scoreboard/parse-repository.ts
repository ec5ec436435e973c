/** A repository as the store keys it. */
export interface RepositoryName {
  owner: string;
  repo: string;
}

/**
 * `owner/name` as GitHub allows it (letters, digits, `-`, `_`, `.`; no `..`), or null: the
 * filter of `--repo` and `?repo=`, so nothing else reaches a query or a page.
 */
export function parseRepository(text: string): RepositoryName | null {
  const match = /^([A-Za-z0-9][A-Za-z0-9-]{0,38})\/([A-Za-z0-9._-]{1,100})$/.exec(text.trim());
  if (match === null || match[2] === "." || match[2] === "..") return null;
  return { owner: match[1] as string, repo: match[2] as string };
}
