import { randomUUID } from "node:crypto";
import type pg from "pg";
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
import { migrations } from "./migrations.js";
import { applyPostgresMigrations, GADFLY_LOCK_CLASS } from "./postgres-migrations.js";
import { postgresOpenError } from "./postgres-open-error.js";
import {
  createPostgresPool,
  describePostgresTarget,
  inTransaction,
  type PostgresConnection,
  retryOnConnectionLoss,
} from "./postgres-pool.js";
import { retryOnDeadlock } from "./retry-on-deadlock.js";
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
  RunStore,
  StartRoundInput,
  StartRoundResult,
  StoredFeedback,
  StoredRound,
} from "./run-store.js";
import { type ScoreboardRows, scoreboardQueries, scoreboardRowsFrom } from "./scoreboard-rows.js";
import { readStoredTranscript, splitSharedTexts } from "./shared-texts.js";
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

const LIVE = "state IN ('queued', 'running')";
/** The database's time in epoch ms, when no lease clock is given. */
const DATABASE_NOW_MS = "(extract(epoch from now()) * 1000)::bigint";
/** The advisory-lock class of the pull requests' trigger locks (the start's is GADFLY_LOCK_CLASS). */
const TRIGGER_LOCK_CLASS = GADFLY_LOCK_CLASS + 1;
/** The class of readers' locks (lockReader), taken inside a trigger lock. */
const READER_LOCK_CLASS = GADFLY_LOCK_CLASS + 2;
/** $1 owner, $2 repo, $3 pull number. */
const SAME_PULL = "owner = $1 AND repo = $2 AND pull_number = $3";
/** Byte order, as SQLite sorts: the database's collation must not change what callers see. */
const BYTES = 'COLLATE "C"';

/**
 * The RunStore on PostgreSQL, shared by every receiver and worker. Each
 * check-then-write runs in one transaction; rounds of one pull request are
 * serialised by a transaction-scoped advisory lock on the PR, and the partial
 * unique index still refuses a second live round for a (PR, SHA) whatever the code does.
 */
export class PostgresRunStore implements RunStore {
  private readonly pool: pg.Pool;
  private readonly clock: Pick<Clock, "now">;
  /** Null: leases and due times follow the database's clock, which every worker shares. */
  private readonly leaseClock: Pick<Clock, "now"> | null;
  private readonly newId: () => string;
  private readonly url: string;
  private readonly onIdleError: ((error: Error) => void) | undefined;
  private lockPool: pg.Pool | undefined;
  private readerLockPool: pg.Pool | undefined;

  /**
   * Connects and migrates; throws StoreOpenError (without the password) when it cannot. `clock`
   * stamps what the store writes; given, leases and due times follow it too (tests). Absent, they
   * follow the database's clock, so workers whose clocks drift never disagree on a lease.
   */
  static async open(
    connection: PostgresConnection,
    clock?: Pick<Clock, "now">,
  ): Promise<PostgresRunStore> {
    const stamps = clock ?? systemClock;
    const target = describePostgresTarget(connection.url);
    const pool = createPostgresPool(connection);
    try {
      await retryOnDeadlock(() => applyPostgresMigrations(pool, target, migrations, stamps.now()));
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw postgresOpenError(target, error);
    }
    return new PostgresRunStore(pool, connection, stamps, clock ?? null);
  }

  private constructor(
    pool: pg.Pool,
    connection: PostgresConnection,
    clock: Pick<Clock, "now">,
    leaseClock: Pick<Clock, "now"> | null,
  ) {
    this.pool = pool;
    this.clock = clock;
    this.leaseClock = leaseClock;
    this.newId = randomUUID;
    this.url = connection.url;
    this.onIdleError = connection.onIdleError;
  }

  /** For readiness probes: one round trip to the server. */
  async ping(): Promise<void> {
    await this.query("SELECT 1");
  }

  async recordDelivery(id: string, event: string, receivedAt: Date): Promise<"new" | "duplicate"> {
    // Not retried on a lost connection: an insert that committed unacknowledged would then read
    // as a duplicate and the delivery be dropped; failing, it is answered 500 and redelivered.
    const result = await this.pool.query(
      "INSERT INTO deliveries (id, event, received_at) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING",
      [id, event, receivedAt.getTime()],
    );
    return result.rowCount === 1 ? "new" : "duplicate";
  }

  async forgetDelivery(id: string): Promise<void> {
    await this.query("DELETE FROM deliveries WHERE id = $1", [id]);
  }

  async lockPullRequest<T>(repo: RepoRef, pullNumber: number, work: () => Promise<T>): Promise<T> {
    // A pool of its own: a lock held across GitHub's answer never takes a connection the work
    // needs (the store's pool); its class differs from the start's, which the work takes inside.
    this.lockPool ??= createPostgresPool({
      url: this.url,
      maxConnections: 4,
      applicationName: "gadfly-trigger-locks",
      onIdleError: this.onIdleError,
    });
    return inTransaction(this.lockPool, async (client) => {
      await client.query("SET LOCAL lock_timeout = '30s'");
      await client.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [
        TRIGGER_LOCK_CLASS,
        JSON.stringify(pullKey(repo, pullNumber)),
      ]);
      return work();
    });
  }

  async lockReader<T>(installationId: number, login: string, work: () => Promise<T>): Promise<T> {
    // Its own pool: taken while a trigger lock holds a connection of the trigger locks' pool,
    // it never waits for a connection its holders keep.
    this.readerLockPool ??= createPostgresPool({
      url: this.url,
      maxConnections: 4,
      applicationName: "gadfly-reader-locks",
      ...(this.onIdleError === undefined ? {} : { onIdleError: this.onIdleError }),
    });
    return inTransaction(this.readerLockPool, async (client) => {
      await client.query("SET LOCAL lock_timeout = '30s'");
      await client.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [
        READER_LOCK_CLASS,
        JSON.stringify([installationId, login.toLowerCase()]),
      ]);
      return work();
    });
  }

  async startRound(input: StartRoundInput): Promise<StartRoundResult> {
    return this.transaction(async (client) => {
      const now = this.clock.now();
      const key = pullKey(input.repo, input.pullNumber);
      await lockPull(client, key);
      const superseded = await supersede(client, key, input.headSha, now);
      const live = await client.query<RoundRow>(
        `SELECT * FROM rounds WHERE ${SAME_PULL} AND head_sha = $4 AND ${LIVE}`,
        [...key, input.headSha],
      );
      const joined = live.rows[0];
      if (joined !== undefined) {
        const forward = await this.transition(client, "bring-forward", joined.id, {
          delay_ms: input.delayMs ?? 0,
        });
        // A writer's trigger joining a reader's round makes it theirs (adoptWriterTriggerSql).
        const adopted =
          input.trigger.kind === "push"
            ? undefined
            : (
                await client.query<RoundRow>(
                  adoptWriterTriggerSql("postgres"),
                  adoptWriterTriggerParams(joined.id, input.trigger),
                )
              ).rows[0];
        return { round: roundFromRow(adopted ?? forward ?? joined), created: false, superseded };
      }
      // Under the PR's lock, so no other transaction can take the same number.
      const next = await client.query<{ next: number }>(
        `SELECT COALESCE(MAX(round_number), 0) + 1 AS next FROM rounds WHERE ${SAME_PULL}`,
        key,
      );
      const delayMs = Math.max(0, input.delayMs ?? 0);
      const inserted = await client.query<RoundRow>(
        `INSERT INTO rounds (id, owner, repo, installation_id, pull_number, head_sha, round_number,
           trigger_kind, trigger_delivery_id, trigger_actor, trigger_full, state, attempts,
           not_before, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $12, 'queued', 0,
           CASE WHEN $13::bigint > 0 THEN COALESCE($14::bigint, ${DATABASE_NOW_MS}) + $13::bigint END,
           $11, $11)
         RETURNING *`,
        [
          this.newId(),
          input.repo.owner,
          input.repo.repo,
          input.installationId,
          input.pullNumber,
          input.headSha,
          next.rows[0]?.next ?? 1,
          input.trigger.kind,
          input.trigger.deliveryId,
          input.trigger.actor ?? null,
          now,
          input.trigger.full === true ? 1 : 0,
          delayMs,
          this.leaseNow(),
        ],
      );
      const row = inserted.rows[0];
      if (row === undefined) throw new Error("inserting a round returned no row");
      return { round: roundFromRow(row), created: true, superseded };
    });
  }

  async findRound(roundId: string): Promise<StoredRound | null> {
    const { rows } = await this.query<RoundRow>("SELECT * FROM rounds WHERE id = $1", [roundId]);
    const row = rows[0];
    return row === undefined ? null : roundFromRow(row);
  }

  async recentRounds(query: RecentRoundsQuery): Promise<StoredRound[]> {
    const since = query.since.getTime();
    const { rows } =
      "pushActor" in query
        ? await this.query<RoundRow>(
            `SELECT * FROM rounds WHERE installation_id = $1 AND trigger_kind = 'push'
               AND trigger_actor = $2 AND (created_at >= $3 OR claimed_at >= $3)
             ORDER BY created_at, round_number`,
            [query.installationId, query.pushActor, since],
          )
        : await this.query<RoundRow>(
            `SELECT * FROM rounds WHERE ${SAME_PULL} AND installation_id = $4
               AND (created_at >= $5 OR claimed_at >= $5) ORDER BY created_at, round_number`,
            [query.repo.owner, query.repo.repo, query.pullNumber, query.installationId, since],
          );
    return rows.map(roundFromRow);
  }

  async claimRound(roundId: string, request: ClaimRequest): Promise<ClaimOutcome> {
    const values = { owner: request.owner, lease_ms: request.leaseMs };
    const claimed = await this.transition(this.pool, "claim", roundId, values);
    if (claimed !== undefined) return claimedOutcome(claimed, false);
    const taken = await this.transition(this.pool, "take-over", roundId, values);
    if (taken !== undefined) return claimedOutcome(taken, true);
    const { rows } = await this.query<RoundRow & { now_ms: number }>(
      `SELECT *, COALESCE($2::bigint, ${DATABASE_NOW_MS}) AS now_ms FROM rounds WHERE id = $1`,
      [roundId, this.leaseNow()],
    );
    const row = rows[0];
    return row === undefined ? { kind: "missing" } : unclaimedOutcome(row, Number(row.now_ms));
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
    // A concurrent supersede holds the row: this UPDATE waits, then re-checks the state.
    return this.fenced(endingTransition(ending), lease, endingValues(ending), ending.state);
  }

  async dueRounds(): Promise<DueRound[]> {
    const { rows } = await this.query<RoundRow & { now_ms: number }>(
      `SELECT *, COALESCE($1::bigint, ${DATABASE_NOW_MS}) AS now_ms FROM rounds
       WHERE ${LIVE} ORDER BY created_at, id ${BYTES}`,
      [this.leaseNow()],
    );
    return rows.map((row) => dueRoundOf(row, Number(row.now_ms)));
  }

  async expireLeases(owner: string): Promise<number> {
    const result = await this.query(
      `UPDATE rounds SET lease_expires_at = COALESCE($2::bigint, ${DATABASE_NOW_MS})
       WHERE state = 'running' AND (lease_owner IS NULL OR lease_owner <> $1)`,
      [owner, this.leaseNow()],
    );
    return result.rowCount ?? 0;
  }

  /** The lease clock: the injected one (tests), else null, and the database's time is used. */
  private leaseNow(): number | null {
    return this.leaseClock === null ? null : this.leaseClock.now();
  }

  /** One transition's UPDATE (round-transition-sql.ts); the row it made, or undefined if refused. */
  private async transition(
    queryable: pg.Pool | pg.PoolClient,
    transition: RowTransition,
    roundId: string,
    values_: Record<string, string | number | null>,
    ending?: RoundEnding["state"],
  ): Promise<RoundRow | undefined> {
    const statement = roundTransitionSql("postgres", transition, ending);
    const values = statementValues(statement, "postgres", {
      failure: null,
      superseded_by: null,
      ...values_,
      id: roundId,
      now: this.leaseNow(),
      stamp: this.clock.now(),
    }) as unknown[];
    // A fenced UPDATE may run twice: the second finds the state it made and changes nothing.
    const run = () => queryable.query<RoundRow>(statement.text, values);
    const { rows } = queryable === this.pool ? await retryOnConnectionLoss(run) : await run();
    return rows[0];
  }

  private async fenced(
    transition: RowTransition,
    lease: RoundLeaseRef,
    values: Record<string, string | number | null>,
    ending?: RoundEnding["state"],
  ): Promise<LeaseOutcome> {
    const row = await this.transition(
      this.pool,
      transition,
      lease.roundId,
      { ...values, epoch: lease.epoch },
      ending,
    );
    if (row !== undefined) return { ok: true, round: roundFromRow(row) };
    return { ok: false, round: await this.findRound(lease.roundId) };
  }

  async setArtifacts(roundId: string, artifacts: RoundArtifacts): Promise<void> {
    const result = await this.query(
      `UPDATE rounds SET
         status_comment_id = COALESCE($2::bigint, status_comment_id),
         consensus_comment_id = COALESCE($3::bigint, consensus_comment_id),
         review_id = COALESCE($4::bigint, review_id),
         check_run_id = COALESCE($5::bigint, check_run_id),
         updated_at = $6
       WHERE id = $1`,
      [
        roundId,
        artifacts.statusCommentId ?? null,
        artifacts.consensusCommentId ?? null,
        artifacts.reviewId ?? null,
        artifacts.checkRunId ?? null,
        this.clock.now(),
      ],
    );
    if (result.rowCount === 0) throw new Error(`No round ${roundId} in the run store`);
  }

  async saveReviewBase(roundId: string, base: ReviewBase): Promise<void> {
    await this.query(
      "UPDATE rounds SET review_base_ref = $1, review_merge_base = $2 WHERE id = $3",
      [base.ref, base.mergeBaseSha, roundId],
    );
  }

  async markLensRunning(roundId: string, model: string, lens: string): Promise<boolean> {
    const result = await this.query(
      `INSERT INTO lens_runs (round_id, model, lens, state, started_at) VALUES ($1, $2, $3, 'running', $4)
       ON CONFLICT (round_id, model, lens) DO UPDATE SET started_at = excluded.started_at
       WHERE lens_runs.state = 'running'`,
      [roundId, model, lens, this.clock.now()],
    );
    return result.rowCount === 1;
  }

  async saveLensReport(roundId: string, report: LensReport): Promise<void> {
    await this.query(
      `INSERT INTO lens_runs
         (round_id, model, lens, state, report, input_tokens, output_tokens, finished_at,
          cached_input_tokens, duration_ms)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       ON CONFLICT (round_id, model, lens) DO UPDATE SET
         state = excluded.state, report = excluded.report, input_tokens = excluded.input_tokens,
         output_tokens = excluded.output_tokens, finished_at = excluded.finished_at,
         cached_input_tokens = excluded.cached_input_tokens, duration_ms = excluded.duration_ms`,
      [
        roundId,
        report.model,
        report.lens,
        report.outcome,
        JSON.stringify(report),
        report.usage.inputTokens,
        report.usage.outputTokens,
        this.clock.now(),
        report.usage.cachedInputTokens ?? 0,
        report.durationMs ?? null,
      ],
    );
  }

  async lensReports(roundId: string): Promise<LensReport[]> {
    const { rows } = await this.query<{ report: string }>(
      `SELECT report FROM lens_runs WHERE round_id = $1 AND report IS NOT NULL
       ORDER BY model ${BYTES}, lens ${BYTES}`,
      [roundId],
    );
    return rows.map(lensReportFromRow);
  }

  async saveTranscript(
    roundId: string,
    model: string,
    lens: string,
    messages: Message[],
  ): Promise<void> {
    const { json, texts } = splitSharedTexts(messages);
    // One statement: the texts and the row that refers to them commit together, so retention
    // (which deletes texts no transcript refers to) never sees one without the other.
    await this.query(
      `WITH kept AS (
         INSERT INTO transcript_texts (round_id, digest, text)
         SELECT $1, digest, text FROM unnest($6::text[], $7::text[]) AS t(digest, text)
         ON CONFLICT (round_id, digest) DO NOTHING
       )
       INSERT INTO transcripts (round_id, model, lens, messages, saved_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (round_id, model, lens) DO UPDATE SET
         messages = excluded.messages, saved_at = excluded.saved_at`,
      [roundId, model, lens, json, this.clock.now(), [...texts.keys()], [...texts.values()]],
    );
  }

  async transcript(roundId: string, model: string, lens: string): Promise<Message[] | null> {
    const { rows } = await this.query<{ messages: string }>(
      "SELECT messages FROM transcripts WHERE round_id = $1 AND model = $2 AND lens = $3",
      [roundId, model, lens],
    );
    const row = rows[0];
    if (row === undefined) return null;
    const stored = readStoredTranscript(row.messages);
    const texts = new Map<string, string>();
    if (stored.refs.length > 0) {
      const found = await this.query<{ digest: string; text: string }>(
        "SELECT digest, text FROM transcript_texts WHERE round_id = $1 AND digest = ANY($2::text[])",
        [roundId, stored.refs],
      );
      for (const text of found.rows) texts.set(text.digest, text.text);
    }
    return stored.join(texts);
  }

  async saveFingerprints(roundId: string, findings: PreviousFinding[]): Promise<void> {
    await this.transaction(async (client) => {
      await client.query("DELETE FROM round_findings WHERE round_id = $1", [roundId]);
      for (const [ordinal, finding] of findings.entries()) {
        await client.query(
          `INSERT INTO round_findings
             (round_id, ordinal, fingerprint, title, file, line, severity, url, detail)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
          [
            roundId,
            ordinal,
            finding.fingerprint,
            finding.title,
            finding.file,
            finding.line,
            finding.severity,
            finding.url ?? null,
            findingDetailJson(finding.detail),
          ],
        );
      }
    });
  }

  async previousRound(
    repo: RepoRef,
    pullNumber: number,
    beforeRoundNumber: number,
  ): Promise<PreviousRound | null> {
    const { rows } = await this.query<RoundRow>(
      `SELECT * FROM rounds
       WHERE ${SAME_PULL} AND state = 'completed' AND round_number < $4
       ORDER BY round_number DESC LIMIT 1`,
      [...pullKey(repo, pullNumber), beforeRoundNumber],
    );
    const row = rows[0];
    if (row === undefined) return null;
    const round = roundFromRow(row);
    const findings = await this.query<RoundFindingRow>(
      `SELECT ${ROUND_FINDING_COLUMNS} FROM round_findings WHERE round_id = $1 ORDER BY ordinal`,
      [round.id],
    );
    const unfinished = await this.query<{ lens: string }>(UNFINISHED_LENSES_SQL("$1"), [round.id]);
    return {
      roundId: round.id,
      round: round.number,
      headSha: round.headSha,
      artifacts: round.artifacts,
      findings: findings.rows.map(previousFindingFromRow),
      unfinishedLenses: unfinished.rows.map((entry) => entry.lens),
      base: reviewBaseFromRow(row),
    };
  }

  async savePostedInline(
    repo: RepoRef,
    pullNumber: number,
    fingerprint: string,
    commentId: number,
  ): Promise<void> {
    await this.query(
      `INSERT INTO posted_inline (owner, repo, pull_number, fingerprint, comment_id, posted_at)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (owner, repo, pull_number, fingerprint) DO UPDATE SET
         comment_id = excluded.comment_id, posted_at = excluded.posted_at,
         fixed_reply_id = NULL`,
      [...pullKey(repo, pullNumber), fingerprint, commentId, this.clock.now()],
    );
  }

  async saveFixedReply(
    repo: RepoRef,
    pullNumber: number,
    fingerprint: string,
    commentId: number,
    replyId: number,
  ): Promise<boolean> {
    const result = await this.query(
      `UPDATE posted_inline SET fixed_reply_id = $6
       WHERE ${SAME_PULL} AND fingerprint = $4 AND comment_id = $5`,
      [...pullKey(repo, pullNumber), fingerprint, commentId, replyId],
    );
    return (result.rowCount ?? 0) > 0;
  }

  async saveListedUnplaced(
    repo: RepoRef,
    pullNumber: number,
    fingerprints: readonly string[],
  ): Promise<void> {
    const unique = [...new Set(fingerprints)];
    if (unique.length === 0) return;
    await this.query(
      `INSERT INTO listed_unplaced (owner, repo, pull_number, fingerprint, listed_at)
       SELECT $1, $2, $3, fingerprint, $4 FROM unnest($5::text[]) AS fingerprint
       ON CONFLICT (owner, repo, pull_number, fingerprint) DO NOTHING`,
      [...pullKey(repo, pullNumber), this.clock.now(), unique],
    );
  }

  async listedUnplaced(repo: RepoRef, pullNumber: number): Promise<string[]> {
    const { rows } = await this.query<{ fingerprint: string }>(
      `SELECT fingerprint FROM listed_unplaced WHERE ${SAME_PULL}
       ORDER BY listed_at, fingerprint ${BYTES}`,
      pullKey(repo, pullNumber),
    );
    return rows.map((row) => row.fingerprint);
  }

  async postedInline(repo: RepoRef, pullNumber: number): Promise<PostedInline[]> {
    const { rows } = await this.query<PostedInlineRow>(
      `SELECT ${POSTED_INLINE_COLUMNS} FROM posted_inline WHERE ${SAME_PULL}
       ORDER BY posted_at, fingerprint ${BYTES}`,
      pullKey(repo, pullNumber),
    );
    return rows.map(postedInlineFromRow);
  }

  async saveChallenge(roundId: string, record: ChallengeRecord): Promise<void> {
    // saved_order comes from its sequence (the column's default): a replaced challenge takes
    // a new number, so it moves to the end like any later save.
    const row = challengeToRow(record);
    await this.query(
      `INSERT INTO round_challenges
         (round_id, fingerprint, model, outcome, verdict, reason, checked, saved_at,
          input_tokens, cached_input_tokens, cache_write_tokens, output_tokens, duration_ms)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
       ON CONFLICT (round_id, fingerprint, model) DO UPDATE SET
         outcome = excluded.outcome, verdict = excluded.verdict, reason = excluded.reason,
         checked = excluded.checked, saved_order = excluded.saved_order,
         saved_at = excluded.saved_at, input_tokens = excluded.input_tokens,
         cached_input_tokens = excluded.cached_input_tokens,
         cache_write_tokens = excluded.cache_write_tokens, output_tokens = excluded.output_tokens,
         duration_ms = excluded.duration_ms`,
      [
        roundId,
        row.fingerprint,
        row.model,
        row.outcome,
        row.verdict,
        row.reason,
        row.checked,
        this.clock.now(),
        row.input_tokens,
        row.cached_input_tokens,
        row.cache_write_tokens,
        row.output_tokens,
        row.duration_ms,
      ],
    );
  }

  async challenges(roundId: string): Promise<ChallengeRecord[]> {
    const { rows } = await this.query<ChallengeRow>(
      `SELECT ${CHALLENGE_COLUMNS} FROM round_challenges WHERE round_id = $1
       ORDER BY saved_order`,
      [roundId],
    );
    return rows.map(challengeFromRow);
  }

  async claimThreadAnswer(
    claim: ThreadAnswerClaim,
    limit: { perPullRequest: number; since: Date },
  ): Promise<ThreadAnswerClaimOutcome> {
    const seen = await this.query(threadAnswerExistsSql("postgres"), [claim.replyCommentId]);
    if (seen.rows.length > 0) return "duplicate";
    const { rows } = await this.query<{ claimed: number | string }>(
      threadAnswersSinceSql("postgres"),
      [claim.repo.owner, claim.repo.repo, claim.pullNumber, limit.since.getTime()],
    );
    if (Number(rows[0]?.claimed ?? 0) >= limit.perPullRequest) return "limit";
    // Not retried on a lost connection, like recordDelivery: a claim that committed
    // unacknowledged would read as a duplicate and the request be dropped.
    const inserted = await this.pool.query(
      insertThreadAnswerSql("postgres"),
      insertThreadAnswerParams(claim, this.clock.now()),
    );
    return inserted.rowCount === 1 ? "claimed" : "duplicate";
  }

  async finishThreadAnswer(replyCommentId: number, result: ThreadAnswerResult): Promise<void> {
    await this.query(
      finishThreadAnswerSql("postgres"),
      finishThreadAnswerParams(replyCommentId, result),
    );
  }

  async renewThreadAnswer(replyCommentId: number, leaseMs: number): Promise<boolean> {
    const renewed = await this.query(renewThreadAnswerSql("postgres"), [
      this.clock.now() + leaseMs,
      replyCommentId,
    ]);
    return renewed.rowCount === 1;
  }

  async staleThreadAnswers(max: number): Promise<StaleThreadAnswer[]> {
    const { rows } = await this.query<StaleThreadAnswerRow>(staleThreadAnswersSql("postgres"), [
      this.clock.now(),
      max,
    ]);
    return rows.map(staleThreadAnswerFromRow);
  }

  async interruptThreadAnswer(replyCommentId: number): Promise<boolean> {
    // Not retried on a lost connection: taken unacknowledged, the thread would be told twice.
    const taken = await this.pool.query(interruptThreadAnswerSql("postgres"), [
      this.clock.now(),
      replyCommentId,
    ]);
    return taken.rowCount === 1;
  }

  async installationSpend(
    installationId: number,
    since: Date,
    exceptRound?: string,
    options?: { readersOnly?: boolean },
  ): Promise<ModelSpend[]> {
    const { rows } = await this.query<ModelSpendRow>(
      installationSpendSql("postgres", options?.readersOnly === true),
      installationSpendParams("postgres", installationId, since, exceptRound),
    );
    return rows.map(modelSpendFromRow);
  }

  async markPublishStep(roundId: string, step: string, state: "intent" | "done"): Promise<void> {
    await this.query(
      `INSERT INTO publish_steps (round_id, step, state, updated_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (round_id, step) DO UPDATE SET state = excluded.state,
         updated_at = excluded.updated_at
       WHERE publish_steps.state <> 'done'`,
      [roundId, step, state, this.clock.now()],
    );
  }

  async publishSteps(roundId: string): Promise<Record<string, "intent" | "done">> {
    const { rows } = await this.query<{ step: string; state: "intent" | "done" }>(
      "SELECT step, state FROM publish_steps WHERE round_id = $1",
      [roundId],
    );
    return Object.fromEntries(rows.map((row) => [row.step, row.state]));
  }

  async saveFeedback(entry: FeedbackInput): Promise<StoredFeedback> {
    const { rows } = await this.query<FeedbackRow>(
      `INSERT INTO finding_feedback
         (owner, repo, pull_number, fingerprint, kind, actor, reason, round_id, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       RETURNING ${FEEDBACK_COLUMNS}`,
      [
        ...pullKey(entry.repo, entry.pullNumber),
        entry.fingerprint,
        entry.kind,
        entry.actor,
        feedbackReason(entry.reason),
        entry.roundId ?? null,
        this.clock.now(),
      ],
    );
    const row = rows[0];
    if (row === undefined) throw new Error("finding_feedback INSERT returned no row");
    return feedbackFromRow(row);
  }

  async feedback(repo: RepoRef, pullNumber: number): Promise<StoredFeedback[]> {
    const { rows } = await this.query<FeedbackRow>(
      `SELECT ${FEEDBACK_COLUMNS} FROM finding_feedback WHERE ${SAME_PULL}
       ORDER BY created_at, id`,
      pullKey(repo, pullNumber),
    );
    return rows.map(feedbackFromRow);
  }

  async feedbackSince(since: Date, repo?: RepoRef): Promise<StoredFeedback[]> {
    const { rows } = await this.query<FeedbackRow>(
      `SELECT ${FEEDBACK_COLUMNS} FROM finding_feedback
       WHERE created_at >= $1 AND ($2::text IS NULL OR (owner = $2 AND repo = $3))
       ORDER BY created_at, id`,
      [since.getTime(), repo?.owner ?? null, repo?.repo ?? null],
    );
    return rows.map(feedbackFromRow);
  }

  async repoDismissals(repo: RepoRef): Promise<RepoDismissal[]> {
    const { rows } = await this.query<RepoDismissalRow>(repoDismissalsQuery("$1", "$2"), [
      repo.owner,
      repo.repo,
    ]);
    return rows.map(repoDismissalFromRow);
  }

  async scoreboardRows(since: Date, repo?: RepoRef): Promise<ScoreboardRows> {
    const queries = scoreboardQueries("postgres", (n) => `$${n}`, repo !== undefined);
    const params = [since.getTime(), ...(repo === undefined ? [] : [repo.owner, repo.repo])];
    // One snapshot for the four reads, so a round saved meanwhile is wholly in or out.
    return retryOnConnectionLoss(() =>
      inTransaction(
        this.pool,
        async (client) => {
          const read = async (sql: string) => (await client.query(sql, params)).rows;
          return scoreboardRowsFrom({
            rounds: await read(queries.rounds),
            lensRuns: await read(queries.lensRuns),
            findings: await read(queries.findings),
            challenges: await read(queries.challenges),
          });
        },
        "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY",
      ),
    );
  }

  async pruneTranscripts(olderThan: Date): Promise<number> {
    const result = await this.query("DELETE FROM transcripts WHERE saved_at < $1", [
      olderThan.getTime(),
    ]);
    // Only a finished round's: a live one may still save a transcript that refers to a text
    // it saved before (ON CONFLICT DO NOTHING takes no lock this DELETE would wait for).
    await this.query(
      `DELETE FROM transcript_texts WHERE NOT EXISTS (
         SELECT 1 FROM transcripts WHERE transcripts.round_id = transcript_texts.round_id)
       AND round_id IN (SELECT id FROM rounds WHERE NOT ${LIVE})`,
    );
    return result.rowCount ?? 0;
  }

  async pruneDeliveries(olderThan: Date): Promise<number> {
    const result = await this.query("DELETE FROM deliveries WHERE received_at < $1", [
      olderThan.getTime(),
    ]);
    return result.rowCount ?? 0;
  }

  async close(): Promise<void> {
    await this.lockPool?.end().catch(() => undefined);
    await this.readerLockPool?.end().catch(() => undefined);
    await this.pool.end();
  }

  private async transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return retryOnConnectionLoss(() => inTransaction(this.pool, work));
  }

  /**
   * A statement on the pool, tried again on a fresh connection when the server ended the one it
   * ran on: a PostgreSQL restart under a running round does not fail the round.
   */
  private query<Row extends pg.QueryResultRow = pg.QueryResultRow>(
    text: string,
    values?: unknown[],
  ): Promise<pg.QueryResult<Row>> {
    return retryOnConnectionLoss(() => this.pool.query<Row>(text, values));
  }
}

type PullKey = [owner: string, repo: string, pullNumber: number];

function pullKey(repo: RepoRef, pullNumber: number): PullKey {
  return [repo.owner, repo.repo, pullNumber];
}

/**
 * Serialises every start and supersede of one pull request until the
 * transaction ends: the round number (MAX + 1) and the join-or-start decision
 * are then race-free. A hash collision between two PRs only makes them wait
 * for each other briefly.
 */
async function lockPull(client: pg.PoolClient, key: PullKey): Promise<void> {
  await client.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [
    GADFLY_LOCK_CLASS,
    JSON.stringify(key),
  ]);
}

async function supersede(
  client: pg.PoolClient,
  key: PullKey,
  newHeadSha: string,
  now: number,
): Promise<StoredRound[]> {
  const { rows } = await client.query<RoundRow>(
    `UPDATE rounds SET state = 'cancelled', superseded_by = $4, failure = $6, lease_owner = NULL,
       lease_expires_at = NULL, updated_at = $5, finished_at = $5
     WHERE ${SAME_PULL} AND head_sha <> $4 AND state IN (${supersedableStates()})
     RETURNING *`,
    [...key, newHeadSha, now, supersededReason(newHeadSha)],
  );
  return rows.map(roundFromRow).sort((left, right) => left.number - right.number);
}
