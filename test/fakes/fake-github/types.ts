// Records the fake GitHub keeps. Internal records hold Maps and Buffers;
// snapshots (the `*Snapshot` types) are what tests and JSON views see.

/** A collaborator's role on a repository, as GitHub's `role_name` names the base roles. */
export type Permission = "admin" | "maintain" | "write" | "triage" | "read" | "none";
export type UserType = "User" | "Bot" | "Organization";

export interface UserRecord {
  login: string;
  id: number;
  type: UserType;
}

/** A file tree: path → content. */
export type Tree = Map<string, Buffer>;

export interface CommitRecord {
  sha: string;
  tree: Tree;
  parents: string[];
  message: string;
}

export interface RepositoryRecord {
  id: number;
  owner: UserRecord;
  name: string;
  defaultBranch: string;
  private: boolean;
  installationId: number;
  /** branch name → commit SHA */
  branches: Map<string, string>;
  commits: Map<string, CommitRecord>;
  /** lower-cased login → permission */
  collaborators: Map<string, Permission>;
  pullRequests: Map<number, PullRequestRecord>;
  nextIssueNumber: number;
}

export type FileStatus = "added" | "removed" | "modified" | "renamed" | "changed";

export interface FileChange {
  filename: string;
  previousFilename?: string;
  status: FileStatus;
  additions: number;
  deletions: number;
  changes: number;
  /** The hunks only, as GitHub's `patch` field; absent for binary files and pure renames. */
  patch?: string;
  binary: boolean;
  /** This file's section of the unified diff (`diff --git …`), newline-terminated. */
  diffText: string;
  /** Blob SHA of the new content (of the old content for removed files). */
  sha: string;
}

export interface PullRequestRecord {
  id: number;
  number: number;
  title: string;
  body: string | null;
  user: UserRecord;
  draft: boolean;
  state: "open" | "closed";
  merged: boolean;
  headRef: string;
  headSha: string;
  /**
   * A fork's head repository; undefined when the head branch lives in the base repository,
   * null when it lived in a fork since deleted.
   */
  headRepository: { owner: string; name: string } | null | undefined;
  baseRef: string;
  baseSha: string;
  /** new path → old path, for renames the diff cannot infer */
  renames: Map<string, string>;
  files: FileChange[];
  diff: string;
  /** Every head SHA this PR ever had, oldest first. */
  headHistory: string[];
  /** Its labels' names, in the order added (GitHub's are unique case-insensitively). */
  labels: string[];
  createdAt: string;
  updatedAt: string;
}

export interface IssueCommentRecord {
  id: number;
  owner: string;
  repo: string;
  issueNumber: number;
  body: string;
  user: UserRecord;
  createdAt: string;
  updatedAt: string;
  htmlUrl: string;
}

export interface ReactionRecord {
  id: number;
  commentId: number;
  content: string;
  user: UserRecord;
  createdAt: string;
}

export type Side = "LEFT" | "RIGHT";

export interface ReviewCommentRecord {
  id: number;
  reviewId: number;
  path: string;
  line: number;
  side: Side;
  startLine: number | null;
  startSide: Side | null;
  /** Position in the file's patch, counted from the first `@@` line. */
  position: number;
  body: string;
  user: UserRecord;
  commitId: string;
  diffHunk: string;
  createdAt: string;
  htmlUrl: string;
  /** The top-level comment of the thread this reply joined; absent on a top-level comment. */
  inReplyToId?: number;
}

/** A review thread as `fake.reviewThreads(pr)` shows it. */
export interface ReviewThreadSnapshot {
  /** The GraphQL node id `resolveReviewThread` takes. */
  id: string;
  isResolved: boolean;
  /** Login of who resolved it. */
  resolvedBy: string | null;
  /** The top-level comment first, then its replies. */
  comments: ReviewCommentRecord[];
}

export type ReviewState = "PENDING" | "COMMENTED" | "APPROVED" | "CHANGES_REQUESTED";

export interface ReviewRecord {
  id: number;
  owner: string;
  repo: string;
  pullNumber: number;
  user: UserRecord;
  body: string;
  state: ReviewState;
  commitId: string;
  submittedAt: string | null;
  htmlUrl: string;
  comments: ReviewCommentRecord[];
}

export interface CheckRunAnnotation {
  path: string;
  start_line: number;
  end_line: number;
  start_column?: number;
  end_column?: number;
  annotation_level: "notice" | "warning" | "failure";
  message: string;
  title?: string;
  raw_details?: string;
}

export interface CheckRunOutput {
  title: string | null;
  summary: string | null;
  text: string | null;
}

/** One create or update request, as the app sent it. */
export interface CheckRunUpdate {
  at: string;
  method: "POST" | "PATCH";
  status: string;
  conclusion: string | null;
  output: Partial<CheckRunOutput> | null;
  annotations: CheckRunAnnotation[];
}

export interface CheckRunRecord {
  id: number;
  owner: string;
  repo: string;
  name: string;
  headSha: string;
  status: string;
  conclusion: string | null;
  startedAt: string | null;
  completedAt: string | null;
  output: CheckRunOutput;
  /** Annotations accumulate across updates, as on GitHub. */
  annotations: CheckRunAnnotation[];
  externalId: string | null;
  detailsUrl: string | null;
  updates: CheckRunUpdate[];
}

export interface InstallationRecord {
  id: number;
  account: UserRecord;
}

export interface IssuedToken {
  token: string;
  installationId: number;
  issuedAt: Date;
  expiresAt: Date;
}

export interface RepositoryKey {
  owner: string;
  repo: string;
}

export interface PullRequestKey extends RepositoryKey {
  number: number;
}

/** URLs of the fake, so JSON views can build GitHub-like links. */
export interface SiteUrls {
  /** e.g. http://127.0.0.1:PORT/api/v3 */
  api: string;
  /** e.g. http://127.0.0.1:PORT */
  html: string;
}

export interface RepositorySnapshot {
  id: number;
  owner: UserRecord;
  name: string;
  fullName: string;
  defaultBranch: string;
  private: boolean;
  installationId: number;
  urls: SiteUrls;
}

export interface PullRequestSnapshot extends PullRequestKey {
  id: number;
  title: string;
  body: string | null;
  user: UserRecord;
  draft: boolean;
  state: "open" | "closed";
  merged: boolean;
  headRef: string;
  headSha: string;
  /** As in PullRequestRecord: null for a deleted fork. */
  headRepository: { owner: string; name: string } | null | undefined;
  baseRef: string;
  baseSha: string;
  /** Its labels' names. */
  labels: string[];
  files: FileChange[];
  diff: string;
  createdAt: string;
  updatedAt: string;
  repository: RepositorySnapshot;
}
