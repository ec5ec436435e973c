import type { Consensus } from "../consensus/index.js";
import type { CodeLinks, RenderOptions } from "../render/index.js";
import { isModelCommentMarker, MARKERS, renderConsensusComment } from "../render/index.js";
import type { GitHubClient, RepoRef } from "./github-client.js";
import { type RateLimitWait, retrySecondaryRateLimit } from "./retry-secondary-rate-limit.js";
import { upsertStickyComment } from "./upsert-sticky-comment.js";

export interface ConsensusTarget {
  repo: RepoRef;
  pullNumber: number;
  botLogin: string;
  knownId?: number;
  meta: unknown;
  /** Each finding's inline comment, by fingerprint: its row links to it. */
  findingUrls?: Readonly<Record<string, string>>;
  /** Where the reviewed code is on the web: each row's Where links to its lines. */
  code?: CodeLinks;
  render?: RenderOptions;
  /** How writes wait out GitHub's secondary rate limit (the round's clock and signal). */
  wait?: RateLimitWait;
}

export interface PublishedConsensus {
  id: number;
  url: string;
}

/**
 * Writes the sticky consensus comment and, when the per-model detail does not
 * fit in it, one sticky comment per model (`<!-- gadfly-model:ID -->`).
 * Overflow comments of an earlier round that are no longer needed are deleted,
 * so the PR never shows stale detail.
 */
export async function publishConsensus(
  octokit: GitHubClient,
  consensus: Consensus,
  target: ConsensusTarget,
): Promise<PublishedConsensus> {
  const options = {
    ...target.render,
    meta: target.meta,
    ...(target.findingUrls === undefined ? {} : { findingUrls: target.findingUrls }),
    ...(target.code === undefined ? {} : { code: target.code }),
  };
  let rendered = renderConsensusComment(consensus, options);
  const sticky = {
    repo: target.repo,
    issueNumber: target.pullNumber,
    botLogin: target.botLogin,
    ...(target.wait === undefined ? {} : { wait: target.wait }),
  };
  const modelCommentUrls: Record<string, string> = {};
  for (const overflow of rendered.overflow) {
    const posted = await upsertStickyComment(
      octokit,
      { ...sticky, marker: overflow.marker },
      overflow.body,
    );
    modelCommentUrls[overflow.model] = posted.url;
  }
  if (rendered.overflow.length > 0) {
    // Render again so the summary links to the per-model comments just posted.
    rendered = renderConsensusComment(consensus, { ...options, modelCommentUrls });
  }
  await deleteStaleOverflow(
    octokit,
    target,
    new Set(rendered.overflow.map((overflow) => overflow.marker)),
  );
  const posted = await upsertStickyComment(
    octokit,
    {
      ...sticky,
      marker: MARKERS.consensus,
      ...(target.knownId === undefined ? {} : { knownId: target.knownId }),
    },
    rendered.body,
  );
  return { id: posted.id, url: posted.url };
}

async function deleteStaleOverflow(
  octokit: GitHubClient,
  target: ConsensusTarget,
  keep: ReadonlySet<string>,
): Promise<void> {
  const comments = await octokit.paginate(octokit.rest.issues.listComments, {
    ...target.repo,
    issue_number: target.pullNumber,
    per_page: 100,
  });
  const login = target.botLogin.toLowerCase();
  for (const comment of comments) {
    if (comment.user?.login.toLowerCase() !== login) continue;
    const firstLine = (comment.body ?? "").split("\n", 1)[0] ?? "";
    if (isModelCommentMarker(firstLine) && !keep.has(firstLine)) {
      await retrySecondaryRateLimit(
        () => octokit.rest.issues.deleteComment({ ...target.repo, comment_id: comment.id }),
        target.wait,
      );
    }
  }
}
