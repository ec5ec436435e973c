import { type FileContent, toBuffer } from "./add-repository.js";
import { diffTrees } from "./diff-trees.js";
import type { FakeState } from "./fake-state.js";
import type { PullRequestRecord, PullRequestSnapshot, RepositoryRecord, Tree } from "./types.js";

export interface PullRequestFileInput {
  path: string;
  /** Content on the base side (at `previousPath` for a rename); omit or null for an added file. */
  base?: FileContent | null;
  /** Content on the head side; omit or null for a removed file. */
  head?: FileContent | null;
  /** The base-side path of a renamed file. */
  previousPath?: string;
}

const DEFAULT_AUTHOR = "octocat";

export interface AddPullRequestInput {
  number?: number;
  title?: string;
  body?: string | null;
  /**
   * The author's login (a `[bot]` suffix makes it a Bot). Absent: `octocat`, made a
   * collaborator with write access when the repository has no say about it yet, so a test's
   * pull request is a maintainer's unless it names someone else (a reader's PR names its author).
   */
  user?: string;
  draft?: boolean;
  state?: "open" | "closed";
  headRef?: string;
  baseRef?: string;
  /** For a pull request from a fork; null for a fork since deleted (GitHub then shows `head.repo: null`). */
  headRepository?: { owner: string; name: string } | null;
  files: PullRequestFileInput[];
  /** Labels it carries from the start. */
  labels?: string[];
}

/**
 * Seeds a pull request. The base branch moves to a commit holding the files'
 * base contents; the head commit applies the head contents on top of it; the
 * files list, patches and unified diff are computed from the two trees.
 */
export function addPullRequest(
  state: FakeState,
  repository: RepositoryRecord,
  input: AddPullRequestInput,
): PullRequestSnapshot {
  const number = input.number ?? repository.nextIssueNumber;
  if (repository.pullRequests.has(number)) throw new Error(`pull request #${number} exists`);
  repository.nextIssueNumber = Math.max(repository.nextIssueNumber, number + 1);
  const baseRef = input.baseRef ?? repository.defaultBranch;
  const baseTip = state.resolveRef(repository, baseRef);
  const baseTree: Tree = new Map(baseTip?.tree ?? []);
  for (const file of input.files) {
    const basePath = file.previousPath ?? file.path;
    if (file.base === undefined || file.base === null) baseTree.delete(basePath);
    else baseTree.set(basePath, toBuffer(file.base));
    if (file.previousPath !== undefined) baseTree.delete(file.path);
  }
  const baseCommit = sameTree(baseTip?.tree, baseTree)
    ? baseTip
    : state.createCommit(repository, baseTip?.sha, baseTree, `Base of #${number}`);
  if (baseCommit === undefined) throw new Error(`base branch ${baseRef} has no commit`);
  repository.branches.set(baseRef, baseCommit.sha);

  const headTree: Tree = new Map(baseTree);
  const renames = new Map<string, string>();
  for (const file of input.files) {
    if (file.previousPath !== undefined) {
      headTree.delete(file.previousPath);
      renames.set(file.path, file.previousPath);
    }
    if (file.head === undefined || file.head === null) headTree.delete(file.path);
    else headTree.set(file.path, toBuffer(file.head));
  }
  const headCommit = state.createCommit(repository, baseCommit.sha, headTree, `Head of #${number}`);
  const headRef = input.headRef ?? `feature-${number}`;
  if (input.headRepository === undefined) repository.branches.set(headRef, headCommit.sha);
  const files = diffTrees(baseTree, headTree, renames);
  if (input.user === undefined && !repository.collaborators.has(DEFAULT_AUTHOR)) {
    repository.collaborators.set(DEFAULT_AUTHOR, "write");
  }
  const createdAt = state.timestamp();
  const pullRequest: PullRequestRecord = {
    id: state.nextId(),
    number,
    title: input.title ?? `Pull request #${number}`,
    body: input.body === undefined ? "" : input.body,
    user: state.user(input.user ?? DEFAULT_AUTHOR),
    draft: input.draft ?? false,
    state: input.state ?? "open",
    merged: false,
    headRef,
    headSha: headCommit.sha,
    headRepository: input.headRepository,
    baseRef,
    baseSha: baseCommit.sha,
    renames,
    files,
    diff: files.map((file) => file.diffText).join(""),
    headHistory: [headCommit.sha],
    labels: [...(input.labels ?? [])],
    createdAt,
    updatedAt: createdAt,
  };
  repository.pullRequests.set(number, pullRequest);
  return state.pullRequestSnapshot(repository, pullRequest);
}

function sameTree(left: Tree | undefined, right: Tree): boolean {
  if (left === undefined || left.size !== right.size) return false;
  for (const [path, content] of right) {
    if (!left.get(path)?.equals(content)) return false;
  }
  return true;
}
