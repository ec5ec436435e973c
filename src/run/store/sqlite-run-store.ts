import { randomUUID } from "node:crypto";
import type { Database } from "better-sqlite3";
import type { LensReport } from "../../agent/index.js";
import type { PreviousFinding } from "../../consensus/index.js";
import type { Message } from "../../llm/index.js";
import { type Clock, systemClock } from "../../time/index.js";
import type { ChallengeRecord } from "../cross-examine.js";
import { supersededReason } from "../round-machine.js";
import {
  installationSpendParams,
  installationSpendSql,
  type ModelSpend,
  type ModelSpendRow,
  modelSpendFromRow,
} from "./installation-spend.js";
import { KeyedLock } from "./keyed-lock.js";
import { openSqliteDatabase } from "./open-sqlite-database.js";
import {
  claimedOutcome,
  dueRoundOf,
  endingTransition,
  endingValues,
  unclaimedOutcome,
} from "./round-outcomes.js";
import {
  adoptWriterTriggerParams,
  adoptWriterTriggerSql,
  type RowTransition,
  roundTransitionSql,
  statementValues,
  supersedableStates,
} from "./round-transition-sql.js";
import type {
  ClaimOutcome,
  ClaimRequest,
  DueRound,
  FeedbackInput,
  LeaseOutcome,
  PostedInline,
  PreviousRound,
  RecentRoundsQuery,
  RepoDismissal,
  RepoRef,
  ReviewBase,
  RoundArtifacts,
  RoundEnding,
  RoundLeaseRef,
  RoundTrigger,
  RunStore,
  StartRoundInput,
  StartRoundResult,
  StoredFeedback,
  StoredRound,
} from "./run-store.js";
import { type ScoreboardRows, scoreboardQueries, scoreboardRowsFrom } from "./scoreboard-rows.js";
import { readStoredTranscript, splitSharedTexts } from "./shared-texts.js";
import { StatementCache } from "./statement-cache.js";
import {
  CHALLENGE_COLUMNS,
  type ChallengeRow,
  challengeFromRow,
  challengeToRow,
  FEEDBACK_COLUMNS,
  type FeedbackRow,
  feedbackFromRow,
  feedbackReason,
  findingDetailJson,
  lensReportFromRow,
  POSTED_INLINE_COLUMNS,
  type PostedInlineRow,
  postedInlineFromRow,
  previousFindingFromRow,
  type RepoDismissalRow,
  ROUND_FINDING_COLUMNS,
  type RoundFindingRow,
  type RoundRow,
  repoDismissalFromRow,
  repoDismissalsQuery,
  reviewBaseFromRow,
  roundFromRow,
  UNFINISHED_LENSES_SQL,
} from "./store-rows.js";
import {
  finishThreadAnswerParams,
  finishThreadAnswerSql,
  insertThreadAnswerParams,
  insertThreadAnswerSql,
  interruptThreadAnswerSql,
  renewThreadAnswerSql,
  type StaleThreadAnswer,
  type StaleThreadAnswerRow,
  staleThreadAnswerFromRow,
  staleThreadAnswersSql,
  type ThreadAnswerClaim,
  type ThreadAnswerClaimOutcome,
  type ThreadAnswerResult,
  threadAnswerExistsSql,
  threadAnswersSinceSql,
} from "./thread-answer-sql.js";

/** How long a write waits for another process's lock on the file. */
const BUSY_TIMEOUT_MS = 5000;

interface PullKey {
  owner: string;
  repo: string;
  pull_number: number;
}

const LIVE = "state IN ('queued', 'running')";
/**
 * The shared texts of rounds no transcript is left of. A transcript saved later (a live round's)
 * writes its texts again in its own transaction, which SQLite never interleaves with this one.
 */
const ORPHAN_TEXTS = `DELETE FROM transcript_texts WHERE NOT EXISTS (
  SELECT 1 FROM transcripts WHERE transcripts.round_id = transcript_texts.round_id)`;
const SAME_PULL = "owner = @owner AND repo = @repo AND pull_number = @pull_number";

/**
 * The pull requests' locks of every store of this process, keyed by the database's file: two
 * stores opened on one file (a test's two receivers) share them. The app writes a SQLite store
 * from one process only (other roles need PostgreSQL), so a lock in memory is the PR's lock.
 */
const PULL_LOCKS = new KeyedLock();
/** Readers' locks, apart from the pull requests' (one is taken inside the other). */
const READER_LOCKS = new KeyedLock();

/** The embedded RunStore: one SQLite file, safe to share between processes on one host. */
export class SqliteRunStore implements RunStore {
  private readonly database: Database;
  private readonly clock: Pick<Clock, "now">;
  private readonly newId: () => string;
  // Compiled once each: the per-lens and per-step writes run dozens of times a round.
  private readonly statements: StatementCache;

  /**
   * Opens or creates the store in `path` (e.g. `<GADFLY_DATA_DIR>/gadfly.sqlite`, its directory
   * created); throws StoreOpenError with what to do when it cannot.
   */
  static async open(
    path: string,
    clock: Pick<Clock, "now"> = systemClock,
  ): Promise<SqliteRunStore> {
    const database = openSqliteDatabase(path, BUSY_TIMEOUT_MS, clock.now());
    return new SqliteRunStore(database, clock, randomUUID);
  }

  private constructor(database: Database, clock: Pick<Clock, "now">, newId: () => string) {
    this.database = database;
    this.statements = new StatementCache(database);
    this.clock = clock;
    this.newId = newId;
  }

  async recordDelivery(id: string, event: string, receivedAt: Date): Promise<"new" | "duplicate"> {
    const result = this.statements
      .prepare<[string, string, number]>(
        "INSERT INTO deliveries (id, event, received_at) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING",
      )
      .run(id, event, receivedAt.getTime());
    return result.changes === 1 ? "new" : "duplicate";
  }

  async forgetDelivery(id: string): Promise<void> {
    this.statements.prepare<[string]>("DELETE FROM deliveries WHERE id = ?").run(id);
  }

  async lockPullRequest<T>(repo: RepoRef, pullNumber: number, work: () => Promise<T>): Promise<T> {
    return PULL_LOCKS.run(JSON.stringify([this.database.name, pullKey(repo, pullNumber)]), work);
  }

  async lockReader<T>(installationId: number, login: string, work: () => Promise<T>): Promise<T> {
    return READER_LOCKS.run(
      JSON.stringify([this.database.name, installationId, login.toLowerCase()]),
      work,
    );
  }

  async startRound(input: StartRoundInput): Promise<StartRoundResult> {
    const start = this.database.transaction((): StartRoundResult => {
      const now = this.clock.now();
      const key = pullKey(input.repo, input.pullNumber);
      const superseded = this.supersede(key, input.headSha, now);
      const live = this.statements
        .prepare<[PullKey & { head_sha: string }], RoundRow>(
          `SELECT * FROM rounds WHERE ${SAME_PULL} AND head_sha = @head_sha AND ${LIVE}`,
        )
        .get({ ...key, head_sha: input.headSha });
      if (live !== undefined) {
        const joined = this.transition("bring-forward", live.id, {
          delay_ms: input.delayMs ?? 0,
        });
        const adopted = this.adoptWriterTrigger(live.id, input.trigger);
        return { round: roundFromRow(adopted ?? joined ?? live), created: false, superseded };
      }
      const next = this.statements
        .prepare<[PullKey], { next: number }>(
          `SELECT COALESCE(MAX(round_number), 0) + 1 AS next FROM rounds WHERE ${SAME_PULL}`,
        )
        .get(key);
      const delayMs = Math.max(0, input.delayMs ?? 0);
      const row = this.statements
        .prepare<[Record<string, string | number | null>], RoundRow>(
          `INSERT INTO rounds (id, owner, repo, installation_id, pull_number, head_sha, round_number,
             trigger_kind, trigger_delivery_id, trigger_actor, trigger_full, state, attempts,
             not_before, created_at, updated_at)
           VALUES (@id, @owner, @repo, @installation_id, @pull_number, @head_sha, @round_number,
             @trigger_kind, @trigger_delivery_id, @trigger_actor, @trigger_full, 'queued', 0,
             @not_before, @now, @now)
           RETURNING *`,
        )
        .get({
          ...key,
          id: this.newId(),
          installation_id: input.installationId,
          head_sha: input.headSha,
          round_number: next?.next ?? 1,
          trigger_kind: input.trigger.kind,
          trigger_delivery_id: input.trigger.deliveryId,
          trigger_actor: input.trigger.actor ?? null,
          trigger_full: input.trigger.full === true ? 1 : 0,
          not_before: delayMs > 0 ? now + delayMs : null,
          now,
        });
      if (row === undefined) throw new Error("inserting a round returned no row");
      return { round: roundFromRow(row), created: true, superseded };
    });
    // IMMEDIATE: take the write lock before reading, so concurrent starts queue instead of racing.
    return start.immediate();
  }

  /** ADOPT_WRITER_TRIGGER_SQL: a writer's trigger joining a reader's round makes it theirs. */
  private adoptWriterTrigger(roundId: string, trigger: RoundTrigger): RoundRow | undefined {
    if (trigger.kind === "push") return undefined;
    return this.statements
      .prepare<(string | number | null)[], RoundRow>(adoptWriterTriggerSql("sqlite"))
      .get(...adoptWriterTriggerParams(roundId, trigger));
  }

  private supersede(key: PullKey, newHeadSha: string, now: number): StoredRound[] {
    const rows = this.statements
      .prepare<[PullKey & { sha: string; failure: string; now: number }], RoundRow>(
        `UPDATE rounds SET state = 'cancelled', superseded_by = @sha, failure = @failure,
           lease_owner = NULL, lease_expires_at = NULL, updated_at = @now, finished_at = @now
         WHERE ${SAME_PULL} AND head_sha <> @sha AND state IN (${supersedableStates()})
         RETURNING *`,
      )
      .all({ ...key, sha: newHeadSha, failure: supersededReason(newHeadSha), now });
    return rows.map(roundFromRow).sort((left, right) => left.number - right.number);
  }

  async findRound(roundId: string): Promise<StoredRound | null> {
    const row = this.statements
      .prepare<[string], RoundRow>("SELECT * FROM rounds WHERE id = ?")
      .get(roundId);
    return row === undefined ? null : roundFromRow(row);
  }

  async recentRounds(query: RecentRoundsQuery): Promise<StoredRound[]> {
    const since = query.since.getTime();
    const rows =
      "pushActor" in query
        ? this.statements
            .prepare<[{ installation_id: number; actor: string; since: number }], RoundRow>(
              `SELECT * FROM rounds WHERE installation_id = @installation_id
                 AND trigger_kind = 'push' AND trigger_actor = @actor
                 AND (created_at >= @since OR claimed_at >= @since)
               ORDER BY created_at, round_number`,
            )
            .all({ installation_id: query.installationId, actor: query.pushActor, since })
        : this.statements
            .prepare<[PullKey & { installation_id: number; since: number }], RoundRow>(
              `SELECT * FROM rounds WHERE ${SAME_PULL} AND installation_id = @installation_id
                 AND (created_at >= @since OR claimed_at >= @since)
               ORDER BY created_at, round_number`,
            )
            .all({
              ...pullKey(query.repo, query.pullNumber),
              installation_id: query.installationId,
              since,
            });
    return rows.map(roundFromRow);
  }

  async claimRound(roundId: string, request: ClaimRequest): Promise<ClaimOutcome> {
    const claim = this.database.transaction((): ClaimOutcome => {
      const values = { owner: request.owner, lease_ms: request.leaseMs };
      const claimed = this.transition("claim", roundId, values);
      if (claimed !== undefined) return claimedOutcome(claimed, false);
      const taken = this.transition("take-over", roundId, values);
      if (taken !== undefined) return claimedOutcome(taken, true);
      const row = this.statements
        .prepare<[string], RoundRow>("SELECT * FROM rounds WHERE id = ?")
        .get(roundId);
      return row === undefined ? { kind: "missing" } : unclaimedOutcome(row, this.clock.now());
    });
    return claim.immediate();
  }

  async renewLease(lease: RoundLeaseRef, leaseMs: number): Promise<LeaseOutcome> {
    return this.fenced("renew", lease, { lease_ms: leaseMs });
  }

  async releaseRound(lease: RoundLeaseRef): Promise<LeaseOutcome> {
    return this.fenced("release", lease, {});
  }

  async retryRound(lease: RoundLeaseRef, delayMs: number): Promise<LeaseOutcome> {
    return this.fenced("retry", lease, { delay_ms: Math.max(0, delayMs) });
  }

  async holdRound(lease: RoundLeaseRef, delayMs: number): Promise<LeaseOutcome> {
    return this.fenced("hold", lease, { delay_ms: Math.max(0, delayMs) });
  }

  async finishRound(lease: RoundLeaseRef, ending: RoundEnding): Promise<LeaseOutcome> {
    return this.fenced(endingTransition(ending), lease, endingValues(ending), ending.state);
  }

  async dueRounds(): Promise<DueRound[]> {
    const rows = this.statements
      .prepare<[], RoundRow>(`SELECT * FROM rounds WHERE ${LIVE} ORDER BY created_at, id`)
      .all();
    const now = this.clock.now();
    return rows.map((row) => dueRoundOf(row, now));
  }

  async expireLeases(owner: string): Promise<number> {
    const result = this.statements
      .prepare<[number, string]>(
        `UPDATE rounds SET lease_expires_at = ?
         WHERE state = 'running' AND (lease_owner IS NULL OR lease_owner <> ?)`,
      )
      .run(this.clock.now(), owner);
    return result.changes;
  }

  /** One transition's UPDATE (round-transition-sql.ts); the row it made, or undefined if refused. */
  private transition(
    transition: RowTransition,
    roundId: string,
    values: Record<string, string | number | null>,
    ending?: RoundEnding["state"],
  ): RoundRow | undefined {
    const statement = roundTransitionSql("sqlite", transition, ending);
    const now = this.clock.now();
    return this.statements
      .prepare<[Record<string, string | number | null>], RoundRow>(statement.text)
      .get(
        statementValues(statement, "sqlite", {
          failure: null,
          superseded_by: null,
          ...values,
          id: roundId,
          now,
          stamp: now,
        }) as Record<string, string | number | null>,
      );
  }

  private async fenced(
    transition: RowTransition,
    lease: RoundLeaseRef,
    values: Record<string, string | number | null>,
    ending?: RoundEnding["state"],
  ): Promise<LeaseOutcome> {
    const row = this.transition(
      transition,
      lease.roundId,
      { ...values, epoch: lease.epoch },
      ending,
    );
    if (row !== undefined) return { ok: true, round: roundFromRow(row) };
    return { ok: false, round: await this.findRound(lease.roundId) };
  }

  async setArtifacts(roundId: string, artifacts: RoundArtifacts): Promise<void> {
    const result = this.statements
      .prepare<[Record<string, string | number | null>]>(
        `UPDATE rounds SET
           status_comment_id = COALESCE(@status, status_comment_id),
           consensus_comment_id = COALESCE(@consensus, consensus_comment_id),
           review_id = COALESCE(@review, review_id),
           check_run_id = COALESCE(@check_run, check_run_id),
           updated_at = @now
         WHERE id = @id`,
      )
      .run({
        id: roundId,
        status: artifacts.statusCommentId ?? null,
        consensus: artifacts.consensusCommentId ?? null,
        review: artifacts.reviewId ?? null,
        check_run: artifacts.checkRunId ?? null,
        now: this.clock.now(),
      });
    if (result.changes === 0) throw new Error(`No round ${roundId} in the run store`);
  }

  async saveReviewBase(roundId: string, base: ReviewBase): Promise<void> {
    this.statements
      .prepare<[string, string, string]>(
        "UPDATE rounds SET review_base_ref = ?, review_merge_base = ? WHERE id = ?",
      )
      .run(base.ref, base.mergeBaseSha, roundId);
  }

  async markLensRunning(roundId: string, model: string, lens: string): Promise<boolean> {
    const result = this.statements
      .prepare<[string, string, string, number]>(
        `INSERT INTO lens_runs (round_id, model, lens, state, started_at) VALUES (?, ?, ?, 'running', ?)
         ON CONFLICT (round_id, model, lens) DO UPDATE SET started_at = excluded.started_at
         WHERE lens_runs.state = 'running'`,
      )
      .run(roundId, model, lens, this.clock.now());
    return result.changes === 1;
  }

  async saveLensReport(roundId: string, report: LensReport): Promise<void> {
    this.statements
      .prepare<[Record<string, string | number | null>]>(
        `INSERT INTO lens_runs
           (round_id, model, lens, state, report, input_tokens, cached_input_tokens, output_tokens,
            duration_ms, finished_at)
         VALUES (@round_id, @model, @lens, @state, @report, @input_tokens, @cached_input_tokens,
           @output_tokens, @duration_ms, @now)
         ON CONFLICT (round_id, model, lens) DO UPDATE SET
           state = excluded.state, report = excluded.report, input_tokens = excluded.input_tokens,
           cached_input_tokens = excluded.cached_input_tokens,
           output_tokens = excluded.output_tokens, duration_ms = excluded.duration_ms,
           finished_at = excluded.finished_at`,
      )
      .run({
        cached_input_tokens: report.usage.cachedInputTokens ?? 0,
        duration_ms: report.durationMs ?? null,
        round_id: roundId,
        model: report.model,
        lens: report.lens,
        state: report.outcome,
        report: JSON.stringify(report),
        input_tokens: report.usage.inputTokens,
        output_tokens: report.usage.outputTokens,
        now: this.clock.now(),
      });
  }

  async lensReports(roundId: string): Promise<LensReport[]> {
    const rows = this.statements
      .prepare<[string], { report: string }>(
        `SELECT report FROM lens_runs WHERE round_id = ? AND report IS NOT NULL
         ORDER BY model, lens`,
      )
      .all(roundId);
    return rows.map(lensReportFromRow);
  }

  async saveTranscript(
    roundId: string,
    model: string,
    lens: string,
    messages: Message[],
  ): Promise<void> {
    const { json, texts } = splitSharedTexts(messages);
    this.database.transaction(() => {
      const keep = this.statements.prepare<[string, string, string]>(
        "INSERT OR IGNORE INTO transcript_texts (round_id, digest, text) VALUES (?, ?, ?)",
      );
      for (const [digest, text] of texts) keep.run(roundId, digest, text);
      this.statements
        .prepare<[string, string, string, string, number]>(
          `INSERT INTO transcripts (round_id, model, lens, messages, saved_at) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (round_id, model, lens) DO UPDATE SET
             messages = excluded.messages, saved_at = excluded.saved_at`,
        )
        .run(roundId, model, lens, json, this.clock.now());
    })();
  }

  async transcript(roundId: string, model: string, lens: string): Promise<Message[] | null> {
    const row = this.statements
      .prepare<[string, string, string], { messages: string }>(
        "SELECT messages FROM transcripts WHERE round_id = ? AND model = ? AND lens = ?",
      )
      .get(roundId, model, lens);
    if (row === undefined) return null;
    const stored = readStoredTranscript(row.messages);
    const texts = new Map<string, string>();
    const text = this.statements.prepare<[string, string], { text: string }>(
      "SELECT text FROM transcript_texts WHERE round_id = ? AND digest = ?",
    );
    for (const digest of stored.refs) {
      const found = text.get(roundId, digest);
      if (found !== undefined) texts.set(digest, found.text);
    }
    return stored.join(texts);
  }

  async saveFingerprints(roundId: string, findings: PreviousFinding[]): Promise<void> {
    const insert = this.statements.prepare<[Record<string, string | number | null>]>(
      `INSERT INTO round_findings
         (round_id, ordinal, fingerprint, title, file, line, severity, url, detail)
       VALUES (@round_id, @ordinal, @fingerprint, @title, @file, @line, @severity, @url, @detail)`,
    );
    const replace = this.database.transaction(() => {
      this.statements
        .prepare<[string]>("DELETE FROM round_findings WHERE round_id = ?")
        .run(roundId);
      findings.forEach((finding, ordinal) => {
        insert.run({
          round_id: roundId,
          ordinal,
          fingerprint: finding.fingerprint,
          title: finding.title,
          file: finding.file,
          line: finding.line,
          severity: finding.severity,
          url: finding.url ?? null,
          detail: findingDetailJson(finding.detail),
        });
      });
    });
    replace.immediate();
  }

  async previousRound(
    repo: RepoRef,
    pullNumber: number,
    beforeRoundNumber: number,
  ): Promise<PreviousRound | null> {
    const row = this.statements
      .prepare<[PullKey & { before: number }], RoundRow>(
        `SELECT * FROM rounds
         WHERE ${SAME_PULL} AND state = 'completed' AND round_number < @before
         ORDER BY round_number DESC LIMIT 1`,
      )
      .get({ ...pullKey(repo, pullNumber), before: beforeRoundNumber });
    if (row === undefined) return null;
    const round = roundFromRow(row);
    const rows = this.statements
      .prepare<[string], RoundFindingRow>(
        `SELECT ${ROUND_FINDING_COLUMNS} FROM round_findings WHERE round_id = ? ORDER BY ordinal`,
      )
      .all(round.id);
    const unfinished = this.statements
      .prepare<[string], { lens: string }>(UNFINISHED_LENSES_SQL("?"))
      .all(round.id);
    return {
      roundId: round.id,
      round: round.number,
      headSha: round.headSha,
      artifacts: round.artifacts,
      findings: rows.map(previousFindingFromRow),
      unfinishedLenses: unfinished.map((entry) => entry.lens),
      base: reviewBaseFromRow(row),
    };
  }

  async savePostedInline(
    repo: RepoRef,
    pullNumber: number,
    fingerprint: string,
    commentId: number,
  ): Promise<void> {
    this.statements
      .prepare<[PullKey & { fingerprint: string; comment_id: number; now: number }]>(
        `INSERT INTO posted_inline (owner, repo, pull_number, fingerprint, comment_id, posted_at)
         VALUES (@owner, @repo, @pull_number, @fingerprint, @comment_id, @now)
         ON CONFLICT (owner, repo, pull_number, fingerprint) DO UPDATE SET
           comment_id = excluded.comment_id, posted_at = excluded.posted_at,
           fixed_reply_id = NULL`,
      )
      .run({
        ...pullKey(repo, pullNumber),
        fingerprint,
        comment_id: commentId,
        now: this.clock.now(),
      });
  }

  async saveFixedReply(
    repo: RepoRef,
    pullNumber: number,
    fingerprint: string,
    commentId: number,
    replyId: number,
  ): Promise<boolean> {
    const result = this.statements
      .prepare<[PullKey & { fingerprint: string; comment_id: number; reply_id: number }]>(
        `UPDATE posted_inline SET fixed_reply_id = @reply_id
         WHERE ${SAME_PULL} AND fingerprint = @fingerprint AND comment_id = @comment_id`,
      )
      .run({
        ...pullKey(repo, pullNumber),
        fingerprint,
        comment_id: commentId,
        reply_id: replyId,
      });
    return result.changes > 0;
  }

  async saveListedUnplaced(
    repo: RepoRef,
    pullNumber: number,
    fingerprints: readonly string[],
  ): Promise<void> {
    const insert = this.statements.prepare<[PullKey & { fingerprint: string; now: number }]>(
      `INSERT INTO listed_unplaced (owner, repo, pull_number, fingerprint, listed_at)
       VALUES (@owner, @repo, @pull_number, @fingerprint, @now)
       ON CONFLICT (owner, repo, pull_number, fingerprint) DO NOTHING`,
    );
    const now = this.clock.now();
    this.database.transaction(() => {
      for (const fingerprint of new Set(fingerprints)) {
        insert.run({ ...pullKey(repo, pullNumber), fingerprint, now });
      }
    })();
  }

  async listedUnplaced(repo: RepoRef, pullNumber: number): Promise<string[]> {
    const rows = this.statements
      .prepare<[PullKey], { fingerprint: string }>(
        `SELECT fingerprint FROM listed_unplaced WHERE ${SAME_PULL}
         ORDER BY listed_at, fingerprint`,
      )
      .all(pullKey(repo, pullNumber));
    return rows.map((row) => row.fingerprint);
  }

  async postedInline(repo: RepoRef, pullNumber: number): Promise<PostedInline[]> {
    const rows = this.statements
      .prepare<[PullKey], PostedInlineRow>(
        `SELECT ${POSTED_INLINE_COLUMNS} FROM posted_inline WHERE ${SAME_PULL}
         ORDER BY posted_at, fingerprint`,
      )
      .all(pullKey(repo, pullNumber));
    return rows.map(postedInlineFromRow);
  }

  async saveChallenge(roundId: string, record: ChallengeRecord): Promise<void> {
    // The round's next number is taken inside the write, which SQLite serialises; a replaced
    // challenge takes a new one, so it moves to the end like any later save.
    this.statements
      .prepare<[ChallengeRow & { round_id: string; now: number }]>(
        `INSERT INTO round_challenges
           (round_id, fingerprint, model, outcome, verdict, reason, checked, input_tokens,
            cached_input_tokens, cache_write_tokens, output_tokens, duration_ms, saved_order,
            saved_at)
         VALUES (@round_id, @fingerprint, @model, @outcome, @verdict, @reason, @checked,
           @input_tokens, @cached_input_tokens, @cache_write_tokens, @output_tokens, @duration_ms,
           (SELECT COALESCE(MAX(saved_order), 0) + 1 FROM round_challenges WHERE round_id = @round_id),
           @now)
         ON CONFLICT (round_id, fingerprint, model) DO UPDATE SET
           outcome = excluded.outcome, verdict = excluded.verdict, reason = excluded.reason,
           checked = excluded.checked, input_tokens = excluded.input_tokens,
           cached_input_tokens = excluded.cached_input_tokens,
           cache_write_tokens = excluded.cache_write_tokens, output_tokens = excluded.output_tokens,
           duration_ms = excluded.duration_ms, saved_order = excluded.saved_order,
           saved_at = excluded.saved_at`,
      )
      .run({ ...challengeToRow(record), round_id: roundId, now: this.clock.now() });
  }

  async challenges(roundId: string): Promise<ChallengeRecord[]> {
    const rows = this.statements
      .prepare<[string], ChallengeRow>(
        `SELECT ${CHALLENGE_COLUMNS} FROM round_challenges WHERE round_id = ?
         ORDER BY saved_order`,
      )
      .all(roundId);
    return rows.map(challengeFromRow);
  }

  async claimThreadAnswer(
    claim: ThreadAnswerClaim,
    limit: { perPullRequest: number; since: Date },
  ): Promise<ThreadAnswerClaimOutcome> {
    const take = this.database.transaction((): ThreadAnswerClaimOutcome => {
      const seen = this.statements
        .prepare<[number], { found: number }>(threadAnswerExistsSql("sqlite"))
        .get(claim.replyCommentId);
      if (seen !== undefined) return "duplicate";
      const counted = this.statements
        .prepare<[string, string, number, number], { claimed: number }>(
          threadAnswersSinceSql("sqlite"),
        )
        .get(claim.repo.owner, claim.repo.repo, claim.pullNumber, limit.since.getTime());
      if ((counted?.claimed ?? 0) >= limit.perPullRequest) return "limit";
      this.statements
        .prepare<(number | string)[]>(insertThreadAnswerSql("sqlite"))
        .run(...insertThreadAnswerParams(claim, this.clock.now()));
      return "claimed";
    });
    return take.immediate();
  }

  async finishThreadAnswer(replyCommentId: number, result: ThreadAnswerResult): Promise<void> {
    this.statements
      .prepare<(number | string | null)[]>(finishThreadAnswerSql("sqlite"))
      .run(...finishThreadAnswerParams(replyCommentId, result));
  }

  async renewThreadAnswer(replyCommentId: number, leaseMs: number): Promise<boolean> {
    const renewed = this.statements
      .prepare<[number, number]>(renewThreadAnswerSql("sqlite"))
      .run(this.clock.now() + leaseMs, replyCommentId);
    return renewed.changes === 1;
  }

  async staleThreadAnswers(max: number): Promise<StaleThreadAnswer[]> {
    return this.statements
      .prepare<[number, number], StaleThreadAnswerRow>(staleThreadAnswersSql("sqlite"))
      .all(this.clock.now(), max)
      .map(staleThreadAnswerFromRow);
  }

  async interruptThreadAnswer(replyCommentId: number): Promise<boolean> {
    const taken = this.statements
      .prepare<[number, number]>(interruptThreadAnswerSql("sqlite"))
      .run(this.clock.now(), replyCommentId);
    return taken.changes === 1;
  }

  async installationSpend(
    installationId: number,
    since: Date,
    exceptRound?: string,
    options?: { readersOnly?: boolean },
  ): Promise<ModelSpend[]> {
    return this.statements
      .prepare<(number | string)[], ModelSpendRow>(
        installationSpendSql("sqlite", options?.readersOnly === true),
      )
      .all(...installationSpendParams("sqlite", installationId, since, exceptRound))
      .map(modelSpendFromRow);
  }

  async markPublishStep(roundId: string, step: string, state: "intent" | "done"): Promise<void> {
    this.statements
      .prepare<[string, string, string, number]>(
        `INSERT INTO publish_steps (round_id, step, state, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (round_id, step) DO UPDATE SET state = excluded.state,
           updated_at = excluded.updated_at
         WHERE publish_steps.state <> 'done'`,
      )
      .run(roundId, step, state, this.clock.now());
  }

  async publishSteps(roundId: string): Promise<Record<string, "intent" | "done">> {
    const rows = this.statements
      .prepare<[string], { step: string; state: "intent" | "done" }>(
        "SELECT step, state FROM publish_steps WHERE round_id = ?",
      )
      .all(roundId);
    return Object.fromEntries(rows.map((row) => [row.step, row.state]));
  }

  async saveFeedback(entry: FeedbackInput): Promise<StoredFeedback> {
    const row = this.statements
      .prepare<[Omit<FeedbackRow, "id">], FeedbackRow>(
        `INSERT INTO finding_feedback
           (owner, repo, pull_number, fingerprint, kind, actor, reason, round_id, created_at)
         VALUES (@owner, @repo, @pull_number, @fingerprint, @kind, @actor, @reason, @round_id,
           @created_at)
         RETURNING ${FEEDBACK_COLUMNS}`,
      )
      .get({
        ...pullKey(entry.repo, entry.pullNumber),
        fingerprint: entry.fingerprint,
        kind: entry.kind,
        actor: entry.actor,
        reason: feedbackReason(entry.reason),
        round_id: entry.roundId ?? null,
        created_at: this.clock.now(),
      });
    if (row === undefined) throw new Error("finding_feedback INSERT returned no row");
    return feedbackFromRow(row);
  }

  async feedback(repo: RepoRef, pullNumber: number): Promise<StoredFeedback[]> {
    return this.statements
      .prepare<[PullKey], FeedbackRow>(
        `SELECT ${FEEDBACK_COLUMNS} FROM finding_feedback WHERE ${SAME_PULL}
         ORDER BY created_at, id`,
      )
      .all(pullKey(repo, pullNumber))
      .map(feedbackFromRow);
  }

  async feedbackSince(since: Date, repo?: RepoRef): Promise<StoredFeedback[]> {
    const sameRepo = repo === undefined ? "" : "AND owner = @owner AND repo = @repo";
    return this.statements
      .prepare<[{ since: number; owner: string | null; repo: string | null }], FeedbackRow>(
        `SELECT ${FEEDBACK_COLUMNS} FROM finding_feedback WHERE created_at >= @since ${sameRepo}
         ORDER BY created_at, id`,
      )
      .all({ since: since.getTime(), owner: repo?.owner ?? null, repo: repo?.repo ?? null })
      .map(feedbackFromRow);
  }

  async repoDismissals(repo: RepoRef): Promise<RepoDismissal[]> {
    return this.statements
      .prepare<[{ owner: string; repo: string }], RepoDismissalRow>(
        repoDismissalsQuery("@owner", "@repo"),
      )
      .all({ owner: repo.owner, repo: repo.repo })
      .map(repoDismissalFromRow);
  }

  async scoreboardRows(since: Date, repo?: RepoRef): Promise<ScoreboardRows> {
    const names = { 1: "@since", 2: "@owner", 3: "@repo" } as const;
    const queries = scoreboardQueries("sqlite", (n) => names[n], repo !== undefined);
    const params = { since: since.getTime(), ...(repo === undefined ? {} : repo) };
    // One read transaction: the four reads see the same state while rounds go on.
    return this.database.transaction(() =>
      scoreboardRowsFrom({
        rounds: this.statements.prepare(queries.rounds).all(params),
        lensRuns: this.statements.prepare(queries.lensRuns).all(params),
        findings: this.statements.prepare(queries.findings).all(params),
        challenges: this.statements.prepare(queries.challenges).all(params),
      }),
    )();
  }

  async pruneTranscripts(olderThan: Date): Promise<number> {
    return this.database.transaction(() => {
      const pruned = this.statements
        .prepare<[number]>("DELETE FROM transcripts WHERE saved_at < ?")
        .run(olderThan.getTime()).changes;
      this.statements.prepare(ORPHAN_TEXTS).run();
      return pruned;
    })();
  }

  async pruneDeliveries(olderThan: Date): Promise<number> {
    return this.statements
      .prepare<[number]>("DELETE FROM deliveries WHERE received_at < ?")
      .run(olderThan.getTime()).changes;
  }

  async close(): Promise<void> {
    this.database.close();
  }
}

function pullKey(repo: RepoRef, pullNumber: number): PullKey {
  return { owner: repo.owner, repo: repo.repo, pull_number: pullNumber };
}
