import type { CodeLinks } from "../render/index.js";
import type { PostedInline } from "../run/store/index.js";
import type { RepoRef } from "./github-client.js";

/** GitHub's web host, as Probot's API host is chosen: GHE_HOST (and GHE_PROTOCOL), else github.com. */
export function githubWebUrl(env: Readonly<Record<string, string | undefined>>): string {
  const host = env.GHE_HOST?.trim() ?? "";
  return host === "" ? "https://github.com" : `${env.GHE_PROTOCOL?.trim() || "https"}://${host}`;
}

export interface ConsensusLinks {
  /** Each row's lines at the head SHA reviewed. */
  code: CodeLinks;
  /** Each finding's inline comment, by fingerprint: `…/pull/7#discussion_r123`. */
  findingUrls: Record<string, string>;
}

/**
 * What the consensus comment links to: the code at the head SHA, and the inline comments posted
 * for its findings (this round's and earlier rounds' still on the PR), by the URL GitHub gives a
 * review comment, computed from its id so no extra request is needed.
 */
export function consensusLinks(
  webUrl: string,
  target: { repo: RepoRef; pullNumber: number; headSha: string },
  posted: readonly PostedInline[],
): ConsensusLinks {
  const repoUrl = `${webUrl.replace(/\/+$/, "")}/${encodeURIComponent(target.repo.owner)}/${encodeURIComponent(target.repo.repo)}`;
  const findingUrls: Record<string, string> = {};
  for (const entry of posted) {
    findingUrls[entry.fingerprint] =
      `${repoUrl}/pull/${target.pullNumber}#discussion_r${entry.commentId}`;
  }
  return { code: { repoUrl, headSha: target.headSha }, findingUrls };
}
