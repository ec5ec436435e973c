import type { DiffFile } from "../diff/index.js";
import { parsePatch } from "../diff/index.js";
import type { ReviewScope } from "../run/index.js";
import type { GitHubClient, RepoRef } from "./github-client.js";

/** GitHub's compare lists at most 300 files: a list that long may be cut, so it is not used. */
export const MAX_COMPARED_FILES = 300;

export interface ReviewScopeInput {
  /** The head of the PR's last round that published a consensus; null on a first round. */
  previousHeadSha: string | null;
  headSha: string;
  /** `@gadfly review full`. */
  forceFull: boolean;
  /** The whole PR's files (from the snapshot): the step's files are kept to these. */
  pullFiles: readonly DiffFile[];
  signal?: AbortSignal;
  /** A GitHub failure that made the round fall back to a full review: for the log. */
  onError?: (error: unknown) => void;
}

/**
 * What a round reviews: the change since the last reviewed head when GitHub's compare says the
 * new head descends from it (`ahead`), else the whole PR with the reason. A force-push or a
 * rebase (`diverged`, `behind`, or the old head gone: 404) falls back to full; so does a step
 * GitHub lists only in part (300 files) or cannot give (an error past Octokit's retries, passed
 * to `onError` and said on the board). A step file outside the PR's own files came from the
 * base (a merge of the base branch into the PR) and is not the author's change: it is left out.
 * A step file without a patch (too large, binary), or whose patch does not parse, is reviewed by
 * its whole-PR patch: one broken patch never fails the round.
 */
export async function readReviewScope(
  octokit: GitHubClient,
  repo: RepoRef,
  input: ReviewScopeInput,
): Promise<ReviewScope> {
  if (input.previousHeadSha === null) return { kind: "full", reason: "first-round" };
  if (input.forceFull) return { kind: "full", reason: "requested" };
  if (input.previousHeadSha === input.headSha) return { kind: "full", reason: "no-change" };
  let data: Awaited<
    ReturnType<GitHubClient["rest"]["repos"]["compareCommitsWithBasehead"]>
  >["data"];
  try {
    ({ data } = await octokit.rest.repos.compareCommitsWithBasehead({
      ...repo,
      basehead: `${input.previousHeadSha}...${input.headSha}`,
      // The files come with the first page whatever its size; one commit keeps the answer small.
      per_page: 1,
      ...(input.signal === undefined ? {} : { request: { signal: input.signal } }),
    }));
  } catch (error) {
    if ((error as { status?: unknown }).status === 404)
      return { kind: "full", reason: "not-ancestor" };
    if (input.signal?.aborted) throw error;
    input.onError?.(error);
    return { kind: "full", reason: "unavailable" };
  }
  if (data.status === "identical") return { kind: "full", reason: "no-change" };
  if (data.status !== "ahead") return { kind: "full", reason: "not-ancestor" };
  const listed = data.files ?? [];
  if (listed.length >= MAX_COMPARED_FILES) return { kind: "full", reason: "too-large" };
  const whole = new Map(input.pullFiles.map((file) => [file.path, file]));
  const files: DiffFile[] = [];
  const wholePatch: string[] = [];
  for (const entry of listed) {
    const pullFile = whole.get(entry.filename);
    if (pullFile === undefined) continue;
    const step = entry.patch ? stepPatch(entry) : null;
    if (step !== null) {
      files.push(step);
    } else {
      files.push(pullFile);
      wholePatch.push(pullFile.path);
    }
  }
  return {
    kind: "incremental",
    since: input.previousHeadSha,
    files,
    ...(wholePatch.length === 0 ? {} : { wholePatch }),
  };
}

type ComparedFile = NonNullable<
  Awaited<ReturnType<GitHubClient["rest"]["repos"]["compareCommitsWithBasehead"]>>["data"]["files"]
>[number];

function stepPatch(entry: ComparedFile): DiffFile | null {
  try {
    return parsePatch(entry.filename, entry.patch ?? "", {
      status: entry.status,
      ...(entry.previous_filename === undefined ? {} : { previousPath: entry.previous_filename }),
    });
  } catch {
    return null;
  }
}
