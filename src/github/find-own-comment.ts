import { startsWithMarker } from "../render/index.js";
import type { GitHubClient, RepoRef } from "./github-client.js";

export interface OwnComment {
  id: number;
  body: string;
  url: string;
}

/**
 * Finds our comment carrying `marker` on an issue or PR: by marker AND by our
 * bot's login, so a marker planted by someone else is never ours to edit.
 * The oldest wins when a past failure left two.
 */
export async function findOwnComment(
  octokit: GitHubClient,
  repo: RepoRef,
  issueNumber: number,
  marker: string,
  botLogin: string,
): Promise<OwnComment | null> {
  const comments = await octokit.paginate(octokit.rest.issues.listComments, {
    ...repo,
    issue_number: issueNumber,
    per_page: 100,
  });
  const login = botLogin.toLowerCase();
  for (const comment of comments) {
    if (comment.user?.login.toLowerCase() !== login) continue;
    const body = comment.body ?? "";
    if (startsWithMarker(body, marker)) {
      return { id: comment.id, body, url: comment.html_url };
    }
  }
  return null;
}
