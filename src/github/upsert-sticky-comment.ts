import { createOnce } from "./create-once.js";
import { findOwnComment, type OwnComment } from "./find-own-comment.js";
import type { GitHubClient, RepoRef } from "./github-client.js";
import { type RateLimitWait, retrySecondaryRateLimit } from "./retry-secondary-rate-limit.js";
import type { BudgetedWrite } from "./write-grant.js";

export interface StickyCommentTarget {
  repo: RepoRef;
  issueNumber: number;
  /** The marker line our body starts with, e.g. `<!-- gadfly-consensus -->`. */
  marker: string;
  botLogin: string;
  /** The id from an earlier write in this process or the store; verified by the edit itself. */
  knownId?: number;
  /** How the write draws on GitHub's write budget (normal priority by default). */
  write?: BudgetedWrite;
  /** How a write refused by GitHub's secondary rate limit waits (the round's clock and signal). */
  wait?: RateLimitWait;
}

/**
 * Upserts in flight per sticky comment. Two rounds of one PR (a push landing
 * while the older round publishes) would otherwise both find no comment and
 * both create one: the second now waits, then finds the first's and edits it.
 */
const pending = new Map<string, Promise<unknown>>();

/**
 * Edits our sticky comment in place, or creates it once: one status board and
 * one consensus comment per PR, never re-posted. Upserts of the same comment
 * in this process run one after the other.
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
  const key = `${repo.owner}/${repo.repo}#${target.issueNumber} ${target.marker}`.toLowerCase();
  const previous = pending.get(key) ?? Promise.resolve();
  const current = previous.then(() => upsert(octokit, target, body));
  const settled = current.catch(() => undefined);
  pending.set(key, settled);
  void settled.then(() => {
    if (pending.get(key) === settled) pending.delete(key);
  });
  return current;
}

async function upsert(
  octokit: GitHubClient,
  target: StickyCommentTarget,
  body: string,
): Promise<OwnComment> {
  const { repo } = target;
  const request = target.write === undefined ? {} : { request: { gadflyWrite: target.write } };
  const edit = async (commentId: number): Promise<OwnComment> => {
    const { data } = await retrySecondaryRateLimit(
      () => octokit.rest.issues.updateComment({ ...repo, comment_id: commentId, body, ...request }),
      target.wait,
    );
    return { id: data.id, body, url: data.html_url };
  };
  if (target.knownId !== undefined) {
    try {
      return await edit(target.knownId);
    } catch (error) {
      // Deleted by a maintainer: fall through and find or recreate it.
      if ((error as { status?: number }).status !== 404) throw error;
    }
  }
  const find = () =>
    findOwnComment(octokit, repo, target.issueNumber, target.marker, target.botLogin);
  const existing = await find();
  if (existing !== null) return edit(existing.id);
  return createOnce(async () => {
    const { data } = await retrySecondaryRateLimit(
      () =>
        octokit.rest.issues.createComment({
          ...repo,
          issue_number: target.issueNumber,
          body,
          ...request,
        }),
      target.wait,
    );
    return { id: data.id, body, url: data.html_url };
  }, find);
}
