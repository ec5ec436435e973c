import { findOwnComment, type OwnComment } from "./find-own-comment.js";
import type { GitHubClient, RepoRef } from "./github-client.js";

export interface StickyCommentTarget {
  repo: RepoRef;
  issueNumber: number;
  /** The marker line our body starts with, e.g. `<!-- gadfly-consensus -->`. */
  marker: string;
  botLogin: string;
  /** The id from an earlier write in this process or the store; verified by the edit itself. */
  knownId?: number;
}

/**
 * Edits our sticky comment in place, or creates it once: one status board and
 * one consensus comment per PR, never re-posted.
 */
export async function upsertStickyComment(
  octokit: GitHubClient,
  target: StickyCommentTarget,
  body: string,
): Promise<OwnComment> {
  if (!body.startsWith(target.marker)) {
    throw new Error(`sticky comment body must start with its marker ${target.marker}`);
  }
  const { repo } = target;
  if (target.knownId !== undefined) {
    try {
      const { data } = await octokit.rest.issues.updateComment({
        ...repo,
        comment_id: target.knownId,
        body,
      });
      return { id: data.id, body, url: data.html_url };
    } catch (error) {
      // Deleted by a maintainer: fall through and find or recreate it.
      if ((error as { status?: number }).status !== 404) throw error;
    }
  }
  const existing = await findOwnComment(
    octokit,
    repo,
    target.issueNumber,
    target.marker,
    target.botLogin,
  );
  if (existing !== null) {
    const { data } = await octokit.rest.issues.updateComment({
      ...repo,
      comment_id: existing.id,
      body,
    });
    return { id: data.id, body, url: data.html_url };
  }
  const { data } = await octokit.rest.issues.createComment({
    ...repo,
    issue_number: target.issueNumber,
    body,
  });
  return { id: data.id, body, url: data.html_url };
}
