import type { RepositorySnapshot } from "../types.js";
import { userJson } from "./user-json.js";

/** A repository as `GET /repos/{owner}/{repo}` and webhook payloads show it. */
export function repositoryJson(repository: RepositorySnapshot): Record<string, unknown> {
  const { urls } = repository;
  const apiUrl = `${urls.api}/repos/${repository.fullName}`;
  return {
    id: repository.id,
    node_id: Buffer.from(`010:Repository${repository.id}`).toString("base64"),
    name: repository.name,
    full_name: repository.fullName,
    private: repository.private,
    visibility: repository.private ? "private" : "public",
    owner: userJson(repository.owner, urls),
    html_url: `${urls.html}/${repository.fullName}`,
    description: null,
    fork: false,
    url: apiUrl,
    archive_url: `${apiUrl}/{archive_format}{/ref}`,
    contents_url: `${apiUrl}/contents/{+path}`,
    pulls_url: `${apiUrl}/pulls{/number}`,
    issues_url: `${apiUrl}/issues{/number}`,
    git_url: `${urls.html.replace(/^http/, "git")}/${repository.fullName}.git`,
    clone_url: `${urls.html}/${repository.fullName}.git`,
    default_branch: repository.defaultBranch,
    archived: false,
    disabled: false,
    created_at: "2020-01-01T00:00:00Z",
    updated_at: "2020-01-01T00:00:00Z",
    pushed_at: "2020-01-01T00:00:00Z",
  };
}
