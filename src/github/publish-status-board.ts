import type { RenderOptions } from "../render/index.js";
import { MARKERS, renderStatusBoard } from "../render/index.js";
import type { RoundStatus } from "../run/index.js";
import type { GitHubClient, RepoRef } from "./github-client.js";
import { upsertStickyComment } from "./upsert-sticky-comment.js";

export interface BoardTarget {
  repo: RepoRef;
  pullNumber: number;
  botLogin: string;
}

/** Writes the PR's one status board (edited in place); returns its comment id. */
export async function publishStatusBoard(
  octokit: GitHubClient,
  target: BoardTarget,
  status: RoundStatus,
  render: RenderOptions,
  knownId: number | undefined,
): Promise<number> {
  const posted = await upsertStickyComment(
    octokit,
    {
      repo: target.repo,
      issueNumber: target.pullNumber,
      marker: MARKERS.statusBoard,
      botLogin: target.botLogin,
      ...(knownId === undefined ? {} : { knownId }),
    },
    renderStatusBoard(status, render),
  );
  return posted.id;
}
