import type { RepoRef } from "./github-client.js";

/** A permission look-up that failed: reported (it fails the delivery), never read as a yes. */
export class PermissionCheckError extends Error {
  constructor(login: string, repo: RepoRef, cause: unknown) {
    const status = (cause as { status?: unknown }).status;
    super(
      `could not check ${login}'s permission on ${repo.owner}/${repo.repo}${
        typeof status === "number" ? ` (HTTP ${status})` : ""
      }: no round started`,
      { cause },
    );
    this.name = "PermissionCheckError";
  }
}
