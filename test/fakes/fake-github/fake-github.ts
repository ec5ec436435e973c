import { randomBytes } from "node:crypto";
import type { Server } from "node:http";
import { type AddPullRequestInput, addPullRequest } from "./add-pull-request.js";
import {
  type AddRepositoryInput,
  addRepository,
  type FileContent,
  toBuffer,
} from "./add-repository.js";
import { buildModeChange } from "./build-mode-change.js";
import type { FakeState } from "./fake-state.js";
import type { FaultScript, ScriptedFault } from "./fault-script.js";
import type { GraphqlFailure } from "./graphql/graphql-failure.js";
import { SECONDARY_RATE_LIMIT_MESSAGE, type ValidationFailure } from "./handle-request.js";
import type { PathPattern } from "./path-pattern.js";
import { type PushedFile, type PushOptions, pushCommit } from "./push-commit.js";
import { recomputePullDiff } from "./recompute-pull-diff.js";
import type { MinuteCount, RecordedRequest, RequestFilter, RequestLog } from "./request-log.js";
import { findReviewComment, reviewThreadsOf } from "./review-threads.js";
import type {
  CheckRunRecord,
  IssueCommentRecord,
  IssuedToken,
  Permission,
  PullRequestKey,
  PullRequestRecord,
  PullRequestSnapshot,
  ReactionRecord,
  RepositoryKey,
  RepositoryRecord,
  RepositorySnapshot,
  ReviewRecord,
  ReviewThreadSnapshot,
  UserRecord,
} from "./types.js";
import { reviewCommentJson } from "./views/review-json.js";

export interface FakeGitHubParts {
  server: Server;
  state: FakeState;
  log: RequestLog;
  faults: FaultScript;
  validationFailures: ValidationFailure[];
  unknownRoutes: RecordedRequest[];
}

/**
 * A running fake GitHub: seed it, point a client at `apiUrl`, then inspect
 * what the client did. Getters return copies, so later requests do not
 * change what a test already read.
 */
export class FakeGitHub {
  /** http://127.0.0.1:PORT — the REST API is served here and under /api/v3. */
  readonly url: string;
  /** http://127.0.0.1:PORT/api/v3, GitHub Enterprise's layout (GHE_HOST + GHE_PROTOCOL). */
  readonly apiUrl: string;
  readonly #parts: FakeGitHubParts;

  constructor(url: string, parts: FakeGitHubParts) {
    this.url = url;
    this.apiUrl = `${url}/api/v3`;
    this.#parts = parts;
  }

  get app(): { id: number; slug: string; botLogin: string } {
    const { app, bot } = this.#parts.state;
    return { id: app.id, slug: app.slug, botLogin: bot.login };
  }

  async close(): Promise<void> {
    const { server } = this.#parts;
    server.closeAllConnections();
    await new Promise<void>((resolve, reject) =>
      server.close((error) => (error ? reject(error) : resolve())),
    );
  }

  // ---- seeding

  addRepo(input: AddRepositoryInput): RepositorySnapshot {
    return addRepository(this.#parts.state, input);
  }

  addCollaborator(login: string, permission: Permission, repository?: RepositoryKey): void {
    this.#repository(repository).collaborators.set(login.toLowerCase(), permission);
    this.#parts.state.user(login);
  }

  /**
   * Writes (or, with null, deletes) a file. On a branch this is a new commit
   * the branch moves to; on a commit SHA the commit is changed in place and
   * the pull requests built on it are recomputed.
   */
  setFile(
    ref: string,
    path: string,
    content: FileContent | null,
    repository?: RepositoryKey,
  ): void {
    const { state } = this.#parts;
    const record = this.#repository(repository);
    const branch = ref.replace(/^refs\/heads\//, "");
    const target = state.resolveRef(record, ref);
    const write = (tree: Map<string, Buffer>) => {
      if (content === null) tree.delete(path);
      else tree.set(path, toBuffer(content));
    };
    if (target !== undefined && !record.branches.has(branch)) {
      write(target.tree);
      for (const pullRequest of record.pullRequests.values()) {
        if (pullRequest.headSha === target.sha || pullRequest.baseSha === target.sha) {
          this.#recompute(record, pullRequest);
        }
      }
      return;
    }
    const parent = target ?? state.resolveRef(record, record.defaultBranch);
    const tree = new Map(parent?.tree ?? []);
    write(tree);
    const commit = state.createCommit(record, parent?.sha, tree, `Update ${path}`);
    record.branches.set(branch, commit.sha);
  }

  addPullRequest(input: AddPullRequestInput & Partial<RepositoryKey>): PullRequestSnapshot {
    const repository = this.#repository(
      input.owner !== undefined && input.repo !== undefined
        ? { owner: input.owner, repo: input.repo }
        : undefined,
    );
    return addPullRequest(this.#parts.state, repository, input);
  }

  /**
   * A new head commit on the PR (new SHA, files and diff recomputed); `{ rewrite: true }` is a
   * force-push after a rebase: the previous head is no longer an ancestor of the new one.
   */
  pushCommit(
    pullRequest: PullRequestKey,
    files: readonly PushedFile[],
    options: PushOptions = {},
  ): PullRequestSnapshot {
    const { repository, record } = this.#pullRequest(pullRequest);
    return pushCommit(this.#parts.state, repository, record, files, options);
  }

  /**
   * Points the PR at another base branch (as editing it on GitHub does): its base is that
   * branch's tip and its files are recomputed from the new merge base. Deliver
   * `pullRequestEvent("edited", pr, { changes: { base: … } })` to tell the app.
   */
  changeBase(pullRequest: PullRequestKey, baseRef: string): PullRequestSnapshot {
    const { state } = this.#parts;
    const { repository, record } = this.#pullRequest(pullRequest);
    const tip = state.resolveRef(repository, baseRef);
    if (tip === undefined || !repository.branches.has(baseRef))
      throw new Error(`no branch ${baseRef}`);
    Object.assign(record, { baseRef, baseSha: tip.sha, updatedAt: state.timestamp() });
    recomputePullDiff(repository, record);
    return state.pullRequestSnapshot(repository, record);
  }

  /**
   * Changes fields of the PR as GitHub shows them. `baseSha`/`headSha` let a test that mirrors
   * the PR in a real git repository report that repository's SHAs (files and diff stay as seeded).
   */
  updatePullRequest(
    pullRequest: PullRequestKey,
    changes: Partial<
      Pick<
        PullRequestRecord,
        "title" | "body" | "draft" | "state" | "merged" | "baseSha" | "headSha"
      >
    >,
  ): PullRequestSnapshot {
    const { repository, record } = this.#pullRequest(pullRequest);
    Object.assign(record, changes, { updatedAt: this.#parts.state.timestamp() });
    return this.#parts.state.pullRequestSnapshot(repository, record);
  }

  /**
   * Sets the PR's labels, as someone with triage access does on GitHub; deliver
   * `pullRequestEvent("labeled" | "unlabeled", pr, { label })` to tell the app. A name given
   * twice (GitHub compares them case-insensitively) is kept once.
   */
  setLabels(pullRequest: PullRequestKey, names: readonly string[]): PullRequestSnapshot {
    const { repository, record } = this.#pullRequest(pullRequest);
    const seen = new Set<string>();
    const labels = names.filter((name) => {
      const key = name.toLowerCase();
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    Object.assign(record, { labels, updatedAt: this.#parts.state.timestamp() });
    return this.#parts.state.pullRequestSnapshot(repository, record);
  }

  /**
   * Marks a file of the PR as a mode change alone (`old mode`/`new mode`, content unchanged), as
   * GitHub lists one: status `changed`, 0/0, no patch, and a header-only section in the `.diff`.
   * The trees hold no modes, so a later push recomputes the files without it.
   */
  changeFileMode(pullRequest: PullRequestKey, path: string, mode = "100755"): void {
    const { repository, record } = this.#pullRequest(pullRequest);
    const content = repository.commits.get(record.headSha)?.tree.get(path);
    if (content === undefined) throw new Error(`${path} is not in the head of #${record.number}`);
    const change = buildModeChange(path, mode, content);
    record.files = [...record.files.filter((file) => file.filename !== path), change].sort(
      (left, right) =>
        left.filename < right.filename ? -1 : left.filename > right.filename ? 1 : 0,
    );
    record.diff = record.files.map((file) => file.diffText).join("");
  }

  /**
   * Makes the files list show `path`'s row as GitHub sometimes does: its `patch` left out
   * (`null`) or replaced, its counts replaced, and its `.diff` section unchanged or replaced
   * (`diffSection`, e.g. one that does not parse either). For the app's handling of rows it
   * cannot take at their word (a 0/0 row that has changes, a patch that does not parse).
   */
  misreportFile(
    pullRequest: PullRequestKey,
    path: string,
    row: { patch?: string | null; additions?: number; deletions?: number; diffSection?: string },
  ): void {
    const { record } = this.#pullRequest(pullRequest);
    record.files = record.files.map((file) => {
      if (file.filename !== path) return file;
      const { patch: _patch, ...rest } = file;
      const patch = row.patch === undefined ? file.patch : (row.patch ?? undefined);
      const additions = row.additions ?? file.additions;
      const deletions = row.deletions ?? file.deletions;
      return {
        ...rest,
        additions,
        deletions,
        changes: additions + deletions,
        ...(patch === undefined ? {} : { patch }),
        diffText: row.diffSection ?? file.diffText,
      };
    });
    record.diff = record.files.map((file) => file.diffText).join("");
  }

  /** Seeds an issue comment written by someone (a human by default, or another bot). */
  addComment(
    pullRequest: PullRequestKey,
    comment: { body: string; user: string },
  ): IssueCommentRecord {
    const { state } = this.#parts;
    const { repository, record } = this.#pullRequest(pullRequest);
    const id = state.nextId();
    const now = state.timestamp();
    const created: IssueCommentRecord = {
      id,
      owner: repository.owner.login,
      repo: repository.name,
      issueNumber: record.number,
      body: comment.body,
      user: state.user(comment.user),
      createdAt: now,
      updatedAt: now,
      htmlUrl: `${state.urls.html}/${repository.owner.login}/${repository.name}/pull/${record.number}#issuecomment-${id}`,
    };
    state.comments.set(id, created);
    return structuredClone(created);
  }

  /**
   * Resolves the review thread of a review comment (top-level or reply) as this user, the way a
   * person clicks "Resolve conversation".
   */
  resolveReviewThread(commentId: number, login: string): void {
    const { state } = this.#parts;
    const found = findReviewComment(state, commentId);
    if (found === undefined) throw new Error(`no review comment ${commentId}`);
    state.resolvedThreads.set(found.comment.inReplyToId ?? found.comment.id, state.user(login));
  }

  /** The user of this login (created on first use), as webhooks name a sender. */
  user(login: string): UserRecord {
    return structuredClone(this.#parts.state.user(login));
  }

  /** A review comment (top-level or reply) as the REST API and webhooks show it. */
  reviewCommentJson(commentId: number): Record<string, unknown> {
    const { state } = this.#parts;
    const found = findReviewComment(state, commentId);
    if (found === undefined) throw new Error(`no review comment ${commentId}`);
    return reviewCommentJson(found.review, found.comment, state.reactionsOn(commentId), state.urls);
  }

  /** A token with which requests act as this (human) user. */
  createUserToken(login: string): string {
    const token = `ghp_${randomBytes(18).toString("hex")}`;
    this.#parts.state.userTokens.set(token, login);
    this.#parts.state.user(login);
    return token;
  }

  // ---- inspection

  pullRequest(pullRequest: PullRequestKey): PullRequestSnapshot {
    const { repository, record } = this.#pullRequest(pullRequest);
    return this.#parts.state.pullRequestSnapshot(repository, record);
  }

  comments(pullRequest: PullRequestKey): IssueCommentRecord[] {
    const { repository, record } = this.#pullRequest(pullRequest);
    return [...this.#parts.state.comments.values()]
      .filter(
        (comment) =>
          comment.owner === repository.owner.login &&
          comment.repo === repository.name &&
          comment.issueNumber === record.number,
      )
      .sort((left, right) => left.id - right.id)
      .map((comment) => structuredClone(comment));
  }

  reviews(pullRequest: PullRequestKey): ReviewRecord[] {
    const { repository, record } = this.#pullRequest(pullRequest);
    return [...this.#parts.state.reviews.values()]
      .filter(
        (review) =>
          review.owner === repository.owner.login &&
          review.repo === repository.name &&
          review.pullNumber === record.number,
      )
      .map((review) => structuredClone(review));
  }

  /** The PR's review threads: each top-level review comment with its replies, and who resolved it. */
  reviewThreads(pullRequest: PullRequestKey): ReviewThreadSnapshot[] {
    const { repository, record } = this.#pullRequest(pullRequest);
    return reviewThreadsOf(
      this.#parts.state,
      repository.owner.login,
      repository.name,
      record.number,
    ).map((thread) => ({
      id: thread.id,
      isResolved: thread.resolvedBy !== null,
      resolvedBy: thread.resolvedBy?.login ?? null,
      comments: thread.comments.map(({ comment }) => structuredClone(comment)),
    }));
  }

  checkRuns(headSha: string): CheckRunRecord[] {
    return [...this.#parts.state.checkRuns.values()]
      .filter((checkRun) => checkRun.headSha === headSha)
      .map((checkRun) => structuredClone(checkRun));
  }

  reactions(commentId: number): ReactionRecord[] {
    return this.#parts.state.reactionsOn(commentId).map((reaction) => structuredClone(reaction));
  }

  requests(filter?: RequestFilter): RecordedRequest[] {
    return this.#parts.log.requests(filter).map((entry) => structuredClone(entry));
  }

  /** Request bodies that did not match GitHub's OpenAPI description: tests expect none. */
  get validationErrors(): ValidationFailure[] {
    return structuredClone(this.#parts.validationFailures);
  }

  /**
   * GraphQL requests not valid against GitHub's schema (or misusing it, e.g. a connection
   * without `first`), and valid ones asking for a field the fake does not serve: tests expect none.
   */
  get graphqlErrors(): GraphqlFailure[] {
    return structuredClone(this.#parts.state.graphqlFailures);
  }

  /** Requests to endpoints the fake does not know (answered 404). */
  get unknownRoutes(): RecordedRequest[] {
    return structuredClone(this.#parts.unknownRoutes);
  }

  /** Installation tokens handed out by the token exchange (never logged elsewhere). */
  get issuedTokens(): IssuedToken[] {
    return [...this.#parts.state.tokens.values()].map((token) => ({ ...token }));
  }

  contentCreatingPerMinute(): MinuteCount[] {
    return this.#parts.log.contentCreatingPerMinute();
  }

  peakContentCreatingPerMinute(): number {
    return this.#parts.log.peakContentCreatingPerMinute();
  }

  /** Per installation id, the most content-creating requests in any sliding `windowMs`. */
  peakContentCreatingByInstallation(windowMs = 60_000): Record<string, number> {
    return this.#parts.log.peakContentCreatingByInstallation(windowMs);
  }

  /** The requests the fake's own secondary rate limit refused (`secondaryRateLimit` option). */
  get secondaryRateLimited(): RecordedRequest[] {
    return this.#parts.log
      .requests()
      .filter((entry) => entry.rateLimited)
      .map((entry) => structuredClone(entry));
  }

  // ---- fault injection

  enqueueFault(fault: ScriptedFault): void {
    this.#parts.faults.enqueue(fault);
  }

  /** The next matching request gets `status` (GitHub's error body unless given). */
  failNext(
    method: string,
    path: PathPattern,
    status: number,
    options: Pick<ScriptedFault, "body" | "headers" | "times"> = {},
  ): void {
    this.enqueueFault({ method, path, status, ...options });
  }

  /**
   * The next matching request is carried out (what it creates exists) and then answered
   * `status`: GitHub's 502 after creating a comment, a review or a check run.
   */
  failAfterDoingNext(method: string, path: PathPattern, status = 502): void {
    this.enqueueFault({ method, path, status, afterDoing: true });
  }

  /** The next matching request hits GitHub's secondary rate limit (403 + retry-after). */
  secondaryRateLimitNext(method: string, path: PathPattern, retryAfterSeconds = 60): void {
    this.enqueueFault({
      method,
      path,
      status: 403,
      headers: { "retry-after": String(retryAfterSeconds) },
      body: {
        message: SECONDARY_RATE_LIMIT_MESSAGE,
        documentation_url:
          "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits",
        status: "403",
      },
    });
  }

  /**
   * The next GraphQL operation selecting this root field (`resolveReviewThread`, `repository`)
   * is answered as GitHub refuses one: 200, the field null, an error of this `type`.
   */
  graphqlErrorNext(
    field: string,
    type = "FORBIDDEN",
    message = "Resource not accessible by integration",
  ): void {
    this.#parts.state.graphqlFaults.push({ field, type, message });
  }

  setLatency(method: string, path: PathPattern, milliseconds: number): void {
    this.#parts.faults.setLatency(method, path, milliseconds);
  }

  clearFaults(): void {
    this.#parts.faults.clear();
    this.#parts.state.graphqlFaults.length = 0;
  }

  get pendingFaults(): number {
    return this.#parts.faults.pending;
  }

  // ---- helpers

  #repository(key: RepositoryKey | undefined): RepositoryRecord {
    const { repositories } = this.#parts.state;
    if (key === undefined) {
      const [only, ...others] = repositories.values();
      if (only === undefined || others.length > 0) {
        throw new Error("name the repository: the fake holds none or several");
      }
      return only;
    }
    const found = this.#parts.state.findRepository(key.owner, key.repo);
    if (found === undefined) throw new Error(`no repository ${key.owner}/${key.repo}`);
    return found;
  }

  #pullRequest(key: PullRequestKey): { repository: RepositoryRecord; record: PullRequestRecord } {
    const repository = this.#repository(key);
    const record = repository.pullRequests.get(key.number);
    if (record === undefined)
      throw new Error(`no pull request ${key.owner}/${key.repo}#${key.number}`);
    return { repository, record };
  }

  #recompute(repository: RepositoryRecord, pullRequest: PullRequestRecord): void {
    recomputePullDiff(repository, pullRequest);
  }
}
