import type { RenderOptions } from "../render/index.js";
import { MARKERS, renderStatusBoard } from "../render/index.js";
import type { RoundStatus } from "../run/index.js";
import type { GitHubClient, RepoRef } from "./github-client.js";
import { upsertStickyComment } from "./upsert-sticky-comment.js";
import type { WritePriority } from "./write-budget.js";
import type { WriteGrant } from "./write-grant.js";

export interface BoardTarget {
  repo: RepoRef;
  pullNumber: number;
  botLogin: string;
}

/**
 * Writes the PR's one status board (edited in place); returns its comment id. A board edit
 * yields to other writes in GitHub's write budget (`board` priority) unless told otherwise;
 * a `grant` taken before rendering pays for it.
 */
export async function publishStatusBoard(
  octokit: GitHubClient,
  target: BoardTarget,
  status: RoundStatus,
  render: RenderOptions,
  knownId: number | undefined,
  budget: { priority?: WritePriority; grant?: WriteGrant | undefined; maxWaitMs?: number } = {},
): Promise<number> {
  const posted = await upsertStickyComment(
    octokit,
    {
      repo: target.repo,
      issueNumber: target.pullNumber,
      marker: MARKERS.statusBoard,
      botLogin: target.botLogin,
      ...(knownId === undefined ? {} : { knownId }),
      write: {
        priority: budget.priority ?? "board",
        grant: budget.grant,
        ...(budget.maxWaitMs === undefined ? {} : { maxWaitMs: budget.maxWaitMs }),
      },
    },
    renderStatusBoard(status, render),
  );
  return posted.id;
}
