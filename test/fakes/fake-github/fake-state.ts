import { createHash } from "node:crypto";
import { gitBlobSha } from "./git-blob-sha.js";
import type { GraphqlFailure } from "./graphql/graphql-failure.js";
import type {
  CheckRunRecord,
  CommitRecord,
  InstallationRecord,
  IssueCommentRecord,
  IssuedToken,
  PullRequestRecord,
  PullRequestSnapshot,
  ReactionRecord,
  RepositoryRecord,
  RepositorySnapshot,
  ReviewRecord,
  SiteUrls,
  Tree,
  UserRecord,
  UserType,
} from "./types.js";

export interface AppIdentity {
  id: number;
  slug: string;
}

/** Everything the fake GitHub holds; routes and seeding functions share it. */
export class FakeState {
  readonly app: AppIdentity;
  readonly urls: SiteUrls;
  readonly now: () => Date;
  readonly bot: UserRecord;
  readonly users = new Map<string, UserRecord>();
  readonly repositories = new Map<string, RepositoryRecord>();
  readonly installations = new Map<number, InstallationRecord>();
  readonly tokens = new Map<string, IssuedToken>();
  /** token → login, for requests made as a human user */
  readonly userTokens = new Map<string, string>();
  readonly comments = new Map<number, IssueCommentRecord>();
  readonly reactions: ReactionRecord[] = [];
  readonly reviews = new Map<number, ReviewRecord>();
  readonly checkRuns = new Map<number, CheckRunRecord>();
  /** Resolved review threads: top-level comment id → who resolved it. */
  readonly resolvedThreads = new Map<number, UserRecord>();
  /** GraphQL requests the fake refused as invalid or could not answer: tests expect none. */
  readonly graphqlFailures: GraphqlFailure[] = [];
  /** Scripted GraphQL errors, each answering the next operation that selects its root field. */
  readonly graphqlFaults: { field: string; type: string; message: string }[] = [];
  #lastId = 1000;
  #commitCounter = 0;

  constructor(app: AppIdentity, urls: SiteUrls, now: () => Date) {
    this.app = app;
    this.urls = urls;
    this.now = now;
    this.bot = this.user(`${app.slug}[bot]`, "Bot");
  }

  nextId(): number {
    this.#lastId += 1;
    return this.#lastId;
  }

  /** GitHub's timestamp format: ISO 8601 without milliseconds. */
  timestamp(): string {
    return `${this.now().toISOString().slice(0, 19)}Z`;
  }

  /** The user with this login, created on first mention. */
  user(login: string, type: UserType = login.endsWith("[bot]") ? "Bot" : "User"): UserRecord {
    const key = login.toLowerCase();
    let user = this.users.get(key);
    if (user === undefined) {
      user = { login, id: this.nextId(), type };
      this.users.set(key, user);
    }
    return user;
  }

  /** The reactions on one comment (issue and review comment ids never collide), oldest first. */
  reactionsOn(commentId: number): ReactionRecord[] {
    return this.reactions.filter((reaction) => reaction.commentId === commentId);
  }

  findRepository(owner: string, name: string): RepositoryRecord | undefined {
    return this.repositories.get(`${owner}/${name}`.toLowerCase());
  }

  findPullRequest(owner: string, name: string, number: number): PullRequestRecord | undefined {
    return this.findRepository(owner, name)?.pullRequests.get(number);
  }

  /** A branch name or a commit SHA (full, or an unambiguous prefix of 7+). */
  resolveRef(repository: RepositoryRecord, ref: string): CommitRecord | undefined {
    const branchSha = repository.branches.get(ref.replace(/^refs\/heads\//, ""));
    if (branchSha !== undefined) return repository.commits.get(branchSha);
    const exact = repository.commits.get(ref);
    if (exact !== undefined || ref.length < 7 || !/^[0-9a-f]+$/.test(ref)) return exact;
    const matches = [...repository.commits.values()].filter((commit) => commit.sha.startsWith(ref));
    return matches.length === 1 ? matches[0] : undefined;
  }

  createCommit(
    repository: RepositoryRecord,
    parent: string | undefined,
    tree: Tree,
    message: string,
  ): CommitRecord {
    this.#commitCounter++;
    const hash = createHash("sha1").update(`commit ${this.#commitCounter}\n${parent ?? ""}\n`);
    for (const path of [...tree.keys()].sort()) {
      hash.update(`${path}\0${gitBlobSha(tree.get(path) ?? Buffer.alloc(0))}\n`);
    }
    const commit: CommitRecord = {
      sha: hash.digest("hex"),
      tree,
      parents: parent === undefined ? [] : [parent],
      message,
    };
    repository.commits.set(commit.sha, commit);
    return commit;
  }

  repositorySnapshot(repository: RepositoryRecord): RepositorySnapshot {
    return {
      id: repository.id,
      owner: { ...repository.owner },
      name: repository.name,
      fullName: `${repository.owner.login}/${repository.name}`,
      defaultBranch: repository.defaultBranch,
      private: repository.private,
      installationId: repository.installationId,
      urls: { ...this.urls },
    };
  }

  pullRequestSnapshot(
    repository: RepositoryRecord,
    pullRequest: PullRequestRecord,
  ): PullRequestSnapshot {
    return {
      owner: repository.owner.login,
      repo: repository.name,
      number: pullRequest.number,
      id: pullRequest.id,
      title: pullRequest.title,
      body: pullRequest.body,
      user: { ...pullRequest.user },
      draft: pullRequest.draft,
      state: pullRequest.state,
      merged: pullRequest.merged,
      headRef: pullRequest.headRef,
      headSha: pullRequest.headSha,
      headRepository:
        pullRequest.headRepository === undefined || pullRequest.headRepository === null
          ? pullRequest.headRepository
          : { ...pullRequest.headRepository },
      baseRef: pullRequest.baseRef,
      baseSha: pullRequest.baseSha,
      files: structuredClone(pullRequest.files),
      labels: [...pullRequest.labels],
      diff: pullRequest.diff,
      createdAt: pullRequest.createdAt,
      updatedAt: pullRequest.updatedAt,
      repository: this.repositorySnapshot(repository),
    };
  }
}
