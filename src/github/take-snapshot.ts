import { mkdir, rm, writeFile } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, sep } from "node:path";
import type { DiffFile } from "../diff/index.js";
import type { NotReviewed } from "../run/index.js";
import {
  DEFAULT_EXTRACT_LIMITS,
  type ExtractLimits,
  extractTarball,
  unlistedSkipsNote,
} from "./extract-tarball.js";
import type { GitHubClient, RepoRef } from "./github-client.js";
import { readListedFiles } from "./read-listed-files.js";

export interface PullRequestSnapshot {
  title: string;
  description: string;
  /** The SHA reviewed (the one asked for, even if the PR has moved on since). */
  headSha: string;
  /** The PR's head when the snapshot was taken: a newer one means this round is stale. */
  currentHeadSha: string;
  /** The PR's base commit: where the repository's conventions are read from. */
  baseSha: string;
  /** The PR's base branch: a round reviewed against another one is no baseline for a step. */
  baseRef: string;
  /** Who opened the PR (null for a deleted account): a small step needs their write access. */
  author: { login: string; type: string } | null;
  draft: boolean;
  files: DiffFile[];
  /** Files whose content could not be had (no patch, too large to extract…). */
  notReviewed: NotReviewed[];
  workspaceDir: string;
  /** How the head tree was obtained. */
  workspaceSource: "tarball" | "contents";
}

/** What the snapshot reads of the pull request itself (`GET /repos/{o}/{r}/pulls/{n}`). */
export type PullRequestFields = Pick<
  Awaited<ReturnType<GitHubClient["rest"]["pulls"]["get"]>>["data"],
  "title" | "body" | "head" | "base" | "draft" | "changed_files" | "user"
>;

/** GitHub lists at most 3,000 files of a pull request. */
const MAX_LISTED_FILES = 3000;

/**
 * Everything a round needs from GitHub at one head SHA: the PR's metadata,
 * its changed files with patches (paginated), and the head tree in a
 * workspace directory (the tarball, extracted in-process within limits; the
 * contents API for the changed files as a fallback).
 */
export async function takeSnapshot(
  octokit: GitHubClient,
  repo: RepoRef,
  pullNumber: number,
  headSha: string,
  workspaceDir: string,
  options: {
    limits?: ExtractLimits;
    /**
     * The pull request as the caller just read it (the round's job reads it to see the head
     * has not moved): not asked of GitHub a second time.
     */
    pull?: PullRequestFields | undefined;
  } = {},
): Promise<PullRequestSnapshot> {
  const limits = options.limits ?? DEFAULT_EXTRACT_LIMITS;
  const pull =
    options.pull ?? (await octokit.rest.pulls.get({ ...repo, pull_number: pullNumber })).data;
  const listed = await octokit.paginate(octokit.rest.pulls.listFiles, {
    ...repo,
    pull_number: pullNumber,
    per_page: 100,
  });
  const { files, notReviewed } = await readListedFiles(octokit, repo, pullNumber, listed);
  if (pull.changed_files > MAX_LISTED_FILES) {
    notReviewed.push({
      path: `(${pull.changed_files - MAX_LISTED_FILES} more files GitHub does not list)`,
      reason: "too-large",
    });
  }

  let workspaceSource: PullRequestSnapshot["workspaceSource"] = "tarball";
  try {
    const extracted = await downloadTree(octokit, repo, headSha, workspaceDir, limits);
    const changed = new Set(files.map((file) => file.path));
    for (const skipped of extracted.skipped) {
      if (changed.has(skipped.path)) {
        notReviewed.push({ path: skipped.path, reason: skipped.reason });
      }
    }
    notReviewed.push(...unlistedSkipsNote(extracted.unlistedSkips));
  } catch {
    workspaceSource = "contents";
    // A tarball that failed half-way (a limit, a broken stream) left part of the tree, up
    // to the extraction limits in size: start again empty, so the workspace holds exactly
    // what the contents API gives and nothing of an extraction that did not finish.
    await rm(workspaceDir, { recursive: true, force: true });
    const left = await fetchChangedFiles(octokit, repo, headSha, files, workspaceDir, limits);
    notReviewed.push(...left);
  }
  return {
    title: pull.title,
    description: pull.body ?? "",
    headSha,
    currentHeadSha: pull.head.sha,
    baseSha: pull.base.sha,
    baseRef: pull.base.ref,
    author: authorOf(pull),
    draft: pull.draft ?? false,
    files,
    notReviewed,
    workspaceDir,
    workspaceSource,
  };
}

async function downloadTree(
  octokit: GitHubClient,
  repo: RepoRef,
  ref: string,
  dir: string,
  limits: ExtractLimits,
) {
  const response = await octokit.request("GET /repos/{owner}/{repo}/tarball/{ref}", {
    ...repo,
    ref,
    request: { parseSuccessResponseBody: false },
  });
  return extractTarball(response.data as unknown as ReadableStream<Uint8Array>, dir, limits);
}

/**
 * Writes the changed files' head content into `dir` through the contents API, within the
 * tarball's byte limits (a pull request that makes its tarball fail must not get more disk
 * this way); returns the files it could not write, for the "not reviewed" list.
 */
async function fetchChangedFiles(
  octokit: GitHubClient,
  repo: RepoRef,
  ref: string,
  files: readonly DiffFile[],
  dir: string,
  limits: ExtractLimits,
): Promise<NotReviewed[]> {
  const left: NotReviewed[] = [];
  let written = 0;
  await mkdir(dir, { recursive: true });
  for (const file of files) {
    if (file.newPath === null || file.binary) continue;
    const within = relative(dir, join(dir, file.newPath));
    const outside = within === ".." || within.startsWith(`..${sep}`) || isAbsolute(within);
    if (within === "" || outside) continue; // not a path inside the tree: nothing to write
    const { data } = await octokit.rest.repos.getContent({ ...repo, path: file.newPath, ref });
    // A symbolic link or a submodule: nothing of the tree to write (its diff is still reviewed).
    if (Array.isArray(data) || data.type !== "file" || !("content" in data)) continue;
    if (data.encoding !== "base64") {
      // Over 1 MB GitHub sends no content (encoding "none"): an empty file would misstate it.
      left.push({ path: file.path, reason: "too-large" });
      continue;
    }
    const content = Buffer.from(data.content, "base64");
    if (content.length > limits.maxFileBytes || written + content.length > limits.maxTotalBytes) {
      left.push({ path: file.path, reason: "too-large" });
      continue;
    }
    written += content.length;
    const target = join(dir, within);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, content);
  }
  return left;
}

/** Who opened the PR; null for a deleted account (or a caller's pull request without one). */
function authorOf(pull: PullRequestFields): PullRequestSnapshot["author"] {
  const user: PullRequestFields["user"] | undefined = pull.user;
  return user === undefined || user === null ? null : { login: user.login, type: user.type };
}
