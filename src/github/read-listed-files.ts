import type { DiffFile } from "../diff/index.js";
import { parsePatch, parseUnifiedDiff } from "../diff/index.js";
import type { NotReviewed } from "../run/index.js";
import type { GitHubClient, RepoRef } from "./github-client.js";

/** One row of GitHub's "list pull request files", as far as the snapshot reads it. */
export type ListedFile = Pick<
  Awaited<ReturnType<GitHubClient["rest"]["pulls"]["listFiles"]>>["data"][number],
  "filename" | "status" | "changes" | "patch" | "previous_filename"
>;

export interface ListedFiles {
  files: DiffFile[];
  notReviewed: NotReviewed[];
}

/**
 * The PR's files as reviewers get them. A row with a patch is parsed from it. A row without one
 * (GitHub leaves it out of binaries, empty files, mode changes, pure renames, large files, and
 * sometimes of a row it lists as 0/0) or whose patch does not parse is read from the PR's whole
 * `.diff` before anything is decided: there it has its hunks, or git's own word that it is
 * binary, or a header alone (an empty file, a mode change, a rename). A row the `.diff` cannot
 * account for is listed as not reviewed, never shown as binary or dropped; one broken patch
 * costs that file, never the round.
 */
export async function readListedFiles(
  octokit: GitHubClient,
  repo: RepoRef,
  pullNumber: number,
  listed: readonly ListedFile[],
): Promise<ListedFiles> {
  const files: DiffFile[] = [];
  const pending: { entry: ListedFile; broken: boolean }[] = [];
  for (const entry of listed) {
    const parsed = entry.patch ? parseRow(entry) : null;
    if (parsed !== null) files.push(parsed);
    else pending.push({ entry, broken: entry.patch !== undefined && entry.patch !== "" });
  }
  const notReviewed: NotReviewed[] = [];
  if (pending.length === 0) return { files, notReviewed };
  const wanted = new Set(pending.map(({ entry }) => entry.filename));
  const whole = await wholeDiffFiles(octokit, repo, pullNumber, wanted);
  for (const { entry, broken } of pending) {
    const file = whole.get(entry.filename);
    if (file !== undefined && accountsFor(file, entry)) files.push(file);
    else notReviewed.push({ path: entry.filename, reason: unreadReason(entry, broken) });
  }
  return { files, notReviewed };
}

function parseRow(entry: ListedFile): DiffFile | null {
  try {
    return parsePatch(entry.filename, entry.patch ?? "", {
      status: entry.status,
      ...(entry.previous_filename === undefined ? {} : { previousPath: entry.previous_filename }),
    });
  } catch {
    // A patch that does not parse: the whole `.diff` may still hold the file, else it alone
    // is not reviewed (the parser's error names a line, never content; nothing to log).
    return null;
  }
}

/**
 * Whether the `.diff`'s entry is the file the row lists: hunks, git's binary mark, or, for a
 * row GitHub counts no change in, a header alone. A row with changes and no hunks is not.
 */
function accountsFor(file: DiffFile, entry: ListedFile): boolean {
  if (file.hunks.length > 0 || file.binary) return true;
  return entry.changes === 0;
}

function unreadReason(entry: ListedFile, broken: boolean): NotReviewed["reason"] {
  if (broken) return "unparsable";
  // GitHub leaves out the patch of a file too large to show; a 0/0 row without one could be
  // anything (binary, empty, a mode change, or changes GitHub did not count).
  return entry.changes > 0 ? "too-large" : "no-patch";
}

/**
 * The files of the PR's `.diff` among `paths`, each section parsed on its own, so one that does
 * not parse loses only that file. Empty when GitHub will not render it (406 past 300 files or
 * 20,000 lines) or fails.
 */
async function wholeDiffFiles(
  octokit: GitHubClient,
  repo: RepoRef,
  pullNumber: number,
  paths: ReadonlySet<string>,
): Promise<Map<string, DiffFile>> {
  let text: string;
  try {
    const { data } = await octokit.rest.pulls.get({
      ...repo,
      pull_number: pullNumber,
      mediaType: { format: "diff" },
    });
    text = data as unknown as string;
  } catch {
    return new Map();
  }
  const found = new Map<string, DiffFile>();
  for (const section of diffSections(text)) {
    let parsed: DiffFile[];
    try {
      parsed = parseUnifiedDiff(section);
    } catch {
      continue;
    }
    for (const file of parsed) if (paths.has(file.path)) found.set(file.path, file);
  }
  return found;
}

/** The `.diff` cut at each `diff --git` line: a hunk's lines all start with a marker, so none is cut. */
function diffSections(text: string): string[] {
  if (typeof text !== "string") return [];
  return text.split(/^(?=diff --git )/m).filter((section) => section.startsWith("diff --git "));
}
