import { MARKERS } from "../render/markers.js";
import type { RenderOptions } from "../render/render-options.js";
import { renderStatusBoard } from "../render/render-status-board.js";
import type { RoundStatus } from "../run/round-status.js";
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
