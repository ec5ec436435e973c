import type { DiffFile } from "../diff/index.js";
import { parsePatch } from "../diff/index.js";
import type { FullReviewReason, ReviewScope } from "../run/index.js";
import type { ReviewBase } from "../run/store/index.js";
import type { GitHubClient, RepoRef } from "./github-client.js";

/** GitHub's compare lists at most 300 files: a list that long may be cut, so it is not used. */
export const MAX_COMPARED_FILES = 300;

/** What the last completed round says of what it reviewed (`RunStore.previousRound`). */
export interface ReviewBaseline {
  headSha: string;
  /** The base branch and merge base it reviewed against; null when not recorded. */
  base: ReviewBase | null;
  /** Lenses no model finished there: their part of the PR is unreviewed. */
  unfinishedLenses: readonly string[];
}

export interface ReviewScopeInput {
  /** The PR's last completed round; null on a first round. */
  previous: ReviewBaseline | null;
  headSha: string;
  /** The PR's base branch now and its tip, as the pull request gives them. */
  base: { ref: string; sha: string };
  /** `@gadfly review full`. */
  forceFull: boolean;
  /** The whole PR's files (from the snapshot, merge base to head): the step is kept to these. */
  pullFiles: readonly DiffFile[];
  signal?: AbortSignal;
  /** A GitHub failure that made the round fall back to a full review: for the log. */
  onError?: (error: unknown) => void;
}

export interface ReadReviewScope {
  scope: ReviewScope;
  /** What this round reviews against, for the next round (null when GitHub could not say). */
  base: ReviewBase | null;
}

type CompareData = Awaited<
  ReturnType<GitHubClient["rest"]["repos"]["compareCommitsWithBasehead"]>
>["data"];
type Compare = (from: string, to: string) => Promise<CompareData>;
type CompareFile = NonNullable<CompareData["files"]>[number];

/**
 * What a round reviews. The step is measured on what the PR does, not on the commits pushed:
 * it is the difference between the PR's diff now (merge base to head, as GitHub shows it) and
 * its diff at the last reviewed head. A file's change in the PR is the same when neither its
 * head side (compare last head → head) nor its base side (compare last merge base → merge base)
 * moved; a file whose head side alone moved is shown by the step's patch; a file whose base
 * side moved (a merge of the base branch, whatever its resolution) by its whole-PR patch.
 *
 * The whole PR, with the reason, when there is no usable baseline: a first round, a request,
 * a last round where some lens no model finished, another base branch (or one not recorded),
 * rewritten history (`diverged`, `behind`, 404), a list GitHub may have cut (300 files), or a
 * GitHub failure (passed to `onError`). A step file whose patch does not parse is reviewed by
 * its whole-PR patch: one broken patch never fails the round.
 */
export async function readReviewScope(
  octokit: GitHubClient,
  repo: RepoRef,
  input: ReviewScopeInput,
): Promise<ReadReviewScope> {
  const compare: Compare = async (from, to) =>
    (
      await octokit.rest.repos.compareCommitsWithBasehead({
        ...repo,
        basehead: `${from}...${to}`,
        // The files come with the first page whatever its size; one commit keeps it small.
        per_page: 1,
        ...(input.signal === undefined ? {} : { request: { signal: input.signal } }),
      })
    ).data;
  let base: ReviewBase | null = null;
  try {
    const now = await compare(input.base.sha, input.headSha);
    base = { ref: input.base.ref, mergeBaseSha: now.merge_base_commit.sha };
  } catch (error) {
    if (input.signal?.aborted) throw error;
    input.onError?.(error);
  }
  return { scope: await scopeOf(compare, input, base), base };
}

const full = (reason: FullReviewReason): ReviewScope => ({ kind: "full", reason });

async function scopeOf(
  compare: Compare,
  input: ReviewScopeInput,
  base: ReviewBase | null,
): Promise<ReviewScope> {
  const { previous } = input;
  if (previous === null) return full("first-round");
  if (input.forceFull) return full("requested");
  if (previous.unfinishedLenses.length > 0) return full("previous-partial");
  if (previous.base === null || previous.base.ref !== input.base.ref) return full("base-changed");
  if (base === null) return full("unavailable");
  if (previous.headSha === input.headSha) return full("no-change");
  try {
    const step = await compare(previous.headSha, input.headSha);
    if (step.status === "identical") return full("no-change");
    if (step.status !== "ahead") return full("not-ancestor");
    const moved =
      previous.base.mergeBaseSha === base.mergeBaseSha
        ? null
        : await compare(previous.base.mergeBaseSha, base.mergeBaseSha);
    // The base branch rewritten under the PR: what was reviewed is not an ancestor of it.
    if (moved !== null && moved.status !== "ahead") return full("base-changed");
    const stepFiles = step.files ?? [];
    const baseFiles = moved?.files ?? [];
    if (stepFiles.length >= MAX_COMPARED_FILES || baseFiles.length >= MAX_COMPARED_FILES)
      return full("too-large");
    return stepOf(previous.headSha, input.pullFiles, stepFiles, baseFiles);
  } catch (error) {
    if ((error as { status?: unknown }).status === 404) return full("not-ancestor");
    if (input.signal?.aborted) throw error;
    input.onError?.(error);
    return full("unavailable");
  }
}

/**
 * The PR's files whose change in the PR is not what was reviewed, each with the patch that
 * shows what is new: the step's patch when only its head side moved, the whole-PR patch when
 * its base side moved or GitHub gave no step patch. A step file the PR no longer changes (the
 * base's own changes a merge brought in, a change reverted) is not the PR's and is left out.
 */
function stepOf(
  since: string,
  pullFiles: readonly DiffFile[],
  stepFiles: readonly CompareFile[],
  baseFiles: readonly CompareFile[],
): ReviewScope {
  const baseSide = new Set(
    baseFiles.flatMap((entry) => [entry.filename, entry.previous_filename ?? entry.filename]),
  );
  const step = new Map(stepFiles.map((entry) => [entry.filename, entry]));
  const files: DiffFile[] = [];
  const wholePatch: string[] = [];
  for (const pullFile of pullFiles) {
    const entry = step.get(pullFile.path);
    const baseMoved =
      baseSide.has(pullFile.path) || (pullFile.oldPath !== null && baseSide.has(pullFile.oldPath));
    if (!baseMoved && entry === undefined) continue;
    // A file the PR moved that the step shows as new (its compare did not pair the move, as
    // GitHub's may not when the content changed much): the whole-PR patch keeps where it came
    // from, so what was found at the old path follows it.
    const movedHere =
      pullFile.oldPath !== null && pullFile.oldPath !== pullFile.path && entry?.status === "added";
    const stepped = !baseMoved && !movedHere && entry?.patch ? stepPatch(entry) : null;
    if (stepped !== null) {
      files.push(stepped);
      continue;
    }
    files.push(pullFile);
    wholePatch.push(pullFile.path);
  }
  return {
    kind: "incremental",
    since,
    files,
    ...(wholePatch.length === 0 ? {} : { wholePatch }),
  };
}

/** The step's patch of a file, or null when it does not parse (the whole-PR patch then). */
function stepPatch(entry: CompareFile): DiffFile | null {
  try {
    return parsePatch(entry.filename, entry.patch ?? "", {
      status: entry.status,
      ...(entry.previous_filename === undefined ? {} : { previousPath: entry.previous_filename }),
    });
  } catch {
    return null;
  }
}
