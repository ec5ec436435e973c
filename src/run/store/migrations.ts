/**
 * One schema change. Statements run in order, all pending migrations in one
 * transaction. Each dialect has its own list so PostgreSQL can diverge where
 * it must; the SQL is kept portable (TEXT, INTEGER, BIGINT; epoch
 * milliseconds for time; JSON as TEXT) so most migrations share one list.
 */
export interface Migration {
  version: number;
  name: string;
  sqlite: readonly string[];
  postgres: readonly string[];
}

/** Where applied versions are recorded (`user_version` is SQLite-only). */
export const MIGRATIONS_TABLE = "gadfly_schema_migrations";

const initialSchema = [
  `CREATE TABLE deliveries (
    id TEXT PRIMARY KEY,
    event TEXT NOT NULL,
    received_at BIGINT NOT NULL
  )`,
  "CREATE INDEX deliveries_received_at ON deliveries (received_at)",
  `CREATE TABLE rounds (
    id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    repo TEXT NOT NULL,
    installation_id BIGINT NOT NULL,
    pull_number BIGINT NOT NULL,
    head_sha TEXT NOT NULL,
    round_number INTEGER NOT NULL,
    trigger_kind TEXT NOT NULL CHECK (trigger_kind IN ('push', 'comment', 'rerequest')),
    trigger_delivery_id TEXT NOT NULL,
    trigger_actor TEXT,
    state TEXT NOT NULL
      CHECK (state IN ('queued', 'running', 'completed', 'failed', 'cancelled')),
    attempts INTEGER NOT NULL DEFAULT 0,
    superseded_by TEXT,
    failure TEXT,
    status_comment_id BIGINT,
    consensus_comment_id BIGINT,
    review_id BIGINT,
    check_run_id BIGINT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    finished_at BIGINT
  )`,
  "CREATE UNIQUE INDEX rounds_number ON rounds (owner, repo, pull_number, round_number)",
  // The database, not only the code, refuses a second live round for one (PR, SHA).
  `CREATE UNIQUE INDEX rounds_one_live_per_sha ON rounds (owner, repo, pull_number, head_sha)
    WHERE state IN ('queued', 'running')`,
  "CREATE INDEX rounds_unfinished ON rounds (created_at) WHERE state IN ('queued', 'running')",
  `CREATE TABLE lens_runs (
    round_id TEXT NOT NULL REFERENCES rounds (id) ON DELETE CASCADE,
    model TEXT NOT NULL,
    lens TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('running', 'done', 'failed', 'cancelled')),
    report TEXT,
    input_tokens BIGINT NOT NULL DEFAULT 0,
    output_tokens BIGINT NOT NULL DEFAULT 0,
    started_at BIGINT,
    finished_at BIGINT,
    PRIMARY KEY (round_id, model, lens)
  )`,
  `CREATE TABLE transcripts (
    round_id TEXT NOT NULL REFERENCES rounds (id) ON DELETE CASCADE,
    model TEXT NOT NULL,
    lens TEXT NOT NULL,
    messages TEXT NOT NULL,
    saved_at BIGINT NOT NULL,
    PRIMARY KEY (round_id, model, lens)
  )`,
  "CREATE INDEX transcripts_saved_at ON transcripts (saved_at)",
  `CREATE TABLE round_findings (
    round_id TEXT NOT NULL REFERENCES rounds (id) ON DELETE CASCADE,
    ordinal INTEGER NOT NULL,
    fingerprint TEXT NOT NULL,
    title TEXT NOT NULL,
    file TEXT NOT NULL,
    line INTEGER NOT NULL,
    severity TEXT NOT NULL,
    url TEXT,
    PRIMARY KEY (round_id, ordinal)
  )`,
  `CREATE TABLE posted_inline (
    owner TEXT NOT NULL,
    repo TEXT NOT NULL,
    pull_number BIGINT NOT NULL,
    fingerprint TEXT NOT NULL,
    comment_id BIGINT NOT NULL,
    posted_at BIGINT NOT NULL,
    PRIMARY KEY (owner, repo, pull_number, fingerprint)
  )`,
];

/**
 * What the PostgreSQL work queue shares between workers besides pg-boss's own
 * schema: cancellations a worker holding a round must see even if it missed
 * the NOTIFY, and the slots capping model calls in flight per provider. Time
 * is the database's (TIMESTAMPTZ) so that workers' clocks never disagree on a
 * lease. The single-process SQLite mode keeps both in memory.
 */
const workQueueTables = [
  `CREATE TABLE queue_cancellations (
    round_id TEXT PRIMARY KEY,
    reason TEXT NOT NULL,
    cancelled_at TIMESTAMPTZ NOT NULL DEFAULT now()
  )`,
  "CREATE INDEX queue_cancellations_at ON queue_cancellations (cancelled_at)",
  `CREATE TABLE model_call_slots (
    provider TEXT NOT NULL,
    slot INTEGER NOT NULL,
    holder TEXT,
    expires_at TIMESTAMPTZ,
    PRIMARY KEY (provider, slot)
  )`,
];

const LENS_STATES_WITH_SKIPPED = "'running', 'done', 'failed', 'cancelled', 'skipped'";

/**
 * A lens may end `skipped` (never started: agent CLIs on a fork's PR below the
 * bubblewrap level). SQLite cannot alter a CHECK constraint, so its table is
 * rebuilt with the same columns; nothing references `lens_runs`, so the copy
 * keeps every row and key.
 */
const skippedLensesSqlite = [
  `CREATE TABLE lens_runs_v3 (
    round_id TEXT NOT NULL REFERENCES rounds (id) ON DELETE CASCADE,
    model TEXT NOT NULL,
    lens TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN (${LENS_STATES_WITH_SKIPPED})),
    report TEXT,
    input_tokens BIGINT NOT NULL DEFAULT 0,
    output_tokens BIGINT NOT NULL DEFAULT 0,
    started_at BIGINT,
    finished_at BIGINT,
    PRIMARY KEY (round_id, model, lens)
  )`,
  `INSERT INTO lens_runs_v3 (round_id, model, lens, state, report, input_tokens, output_tokens,
     started_at, finished_at)
   SELECT round_id, model, lens, state, report, input_tokens, output_tokens, started_at, finished_at
   FROM lens_runs`,
  "DROP TABLE lens_runs",
  "ALTER TABLE lens_runs_v3 RENAME TO lens_runs",
];

/** PostgreSQL names an inline column CHECK `<table>_<column>_check`: replaced in place. */
const skippedLensesPostgres = [
  "ALTER TABLE lens_runs DROP CONSTRAINT lens_runs_state_check",
  `ALTER TABLE lens_runs ADD CONSTRAINT lens_runs_state_check
    CHECK (state IN (${LENS_STATES_WITH_SKIPPED}))`,
];

/**
 * Threads follow the code: the reply Gadfly wrote under an inline comment whose finding was
 * fixed (so no later round replies again), and the findings a review body already listed as
 * not placeable inline (so later rounds do not list them again). Portable SQL, both dialects.
 */
const inlineThreads = [
  "ALTER TABLE posted_inline ADD COLUMN fixed_reply_id BIGINT",
  `CREATE TABLE listed_unplaced (
    owner TEXT NOT NULL,
    repo TEXT NOT NULL,
    pull_number BIGINT NOT NULL,
    fingerprint TEXT NOT NULL,
    listed_at BIGINT NOT NULL,
    PRIMARY KEY (owner, repo, pull_number, fingerprint)
  )`,
];

/**
 * Cross-examination: each ended challenge of a round (a challenger's vote on a lone finding,
 * or why it gave none), kept so a resumed round does not ask again. One row per (round,
 * fingerprint, challenger); saving it again replaces it and moves it to the end of
 * `saved_order`, which gives the order of saving. The CHECKs keep a vote only on an answered
 * challenge. Rows go with their round (cascade), as lens runs do. Only the order's source
 * differs: SQLite takes the round's next number inside the write (writers are serialised),
 * PostgreSQL a sequence (concurrent writers never share a number).
 */
function challengesTable(savedOrder: string): string[] {
  return [
    `CREATE TABLE round_challenges (
    round_id TEXT NOT NULL REFERENCES rounds (id) ON DELETE CASCADE,
    fingerprint TEXT NOT NULL,
    model TEXT NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN ('answered', 'failed', 'cancelled')),
    verdict TEXT CHECK (verdict IN ('confirm', 'refute', 'unsure')),
    reason TEXT NOT NULL,
    checked TEXT,
    saved_order ${savedOrder},
    saved_at BIGINT NOT NULL,
    PRIMARY KEY (round_id, fingerprint, model),
    CHECK ((outcome = 'answered') = (verdict IS NOT NULL)),
    CHECK (outcome = 'answered' OR checked IS NULL)
  )`,
    "CREATE INDEX round_challenges_order ON round_challenges (round_id, saved_order)",
  ];
}

/**
 * Incremental rounds: a round asked for as `@gadfly review full` reviews the whole PR whoever
 * runs it (the flag lives with the round, not the delivery, so a worker that takes the job
 * later still knows); a published finding keeps what a later round needs to carry it as still
 * open without a model seeing it again (its end line, models, lens, confidence, a bounded body),
 * as JSON text. Portable SQL, both dialects; old rows read as not forced and without detail.
 */
const incrementalRounds = [
  "ALTER TABLE rounds ADD COLUMN trigger_full INTEGER NOT NULL DEFAULT 0",
  "ALTER TABLE round_findings ADD COLUMN detail TEXT",
];

/**
 * Accounting: what each lens and each challenge spent, queryable without parsing reports —
 * cached input tokens and the wall time of a lens (its report holds the verify split), and a
 * challenge's tokens and time (null on rows saved before they were counted). Portable SQL.
 */
const usageColumns = [
  "ALTER TABLE lens_runs ADD COLUMN cached_input_tokens BIGINT NOT NULL DEFAULT 0",
  "ALTER TABLE lens_runs ADD COLUMN duration_ms BIGINT",
  "ALTER TABLE round_challenges ADD COLUMN input_tokens BIGINT",
  "ALTER TABLE round_challenges ADD COLUMN cached_input_tokens BIGINT",
  "ALTER TABLE round_challenges ADD COLUMN cache_write_tokens BIGINT",
  "ALTER TABLE round_challenges ADD COLUMN output_tokens BIGINT",
  "ALTER TABLE round_challenges ADD COLUMN duration_ms BIGINT",
];

/**
 * Feedback on findings: one row per reaction, dismissal, undismissal or thread resolved without
 * a fix, with who and when (append only; the latest dismiss/undismiss of a finding wins). Keyed
 * by the finding's fingerprint, so it outlives rounds; `round_id` is informative, not a foreign
 * key. Only the id's type differs between dialects.
 */
function feedbackTable(id: string): string[] {
  return [
    `CREATE TABLE finding_feedback (
    id ${id},
    owner TEXT NOT NULL,
    repo TEXT NOT NULL,
    pull_number BIGINT NOT NULL,
    fingerprint TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('thumbs_up', 'thumbs_down', 'dismiss', 'false_positive',
      'undismiss', 'resolved_without_fix')),
    actor TEXT NOT NULL,
    reason TEXT,
    round_id TEXT,
    created_at BIGINT NOT NULL
  )`,
    "CREATE INDEX finding_feedback_finding ON finding_feedback (owner, repo, fingerprint)",
    "CREATE INDEX finding_feedback_created_at ON finding_feedback (created_at)",
  ];
}

/**
 * Idempotent publishing: each publishing step of a round records its intent before the GitHub
 * call and `done` after its result is stored, so a round resumed after a kill knows which calls
 * may have reached GitHub unrecorded (look there before posting) and which are finished. Portable
 * SQL; cascades with the round.
 */
const publishSteps = [
  `CREATE TABLE publish_steps (
    round_id TEXT NOT NULL REFERENCES rounds (id) ON DELETE CASCADE,
    step TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('intent', 'done')),
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (round_id, step)
  )`,
];

/**
 * GitHub's write budget shared by every process of a deployment: one token bucket a row (a
 * minute's, `github-writes:<installation id>`, and an hour's, `github-writes-hour:<…>`),
 * refilled by elapsed time and taken from by one atomic statement
 * (run/queue/postgres-token-buckets.ts). PostgreSQL only: with SQLite one process
 * keeps its buckets in memory, as it does the model-call slots (migration 2).
 */
const tokenBuckets = [
  `CREATE TABLE token_buckets (
    bucket TEXT PRIMARY KEY,
    tokens DOUBLE PRECISION NOT NULL,
    refilled_at BIGINT NOT NULL
  )`,
];

/**
 * Long message contents of a round's transcripts, stored once per round and referred to by
 * digest from `transcripts.messages` (run/store/shared-texts.ts): the twenty transcripts of a
 * round begin with the same opening. Deleted with the round, and by retention once no
 * transcript of the round is left.
 */
const transcriptTexts = [
  `CREATE TABLE transcript_texts (
    round_id TEXT NOT NULL REFERENCES rounds (id) ON DELETE CASCADE,
    digest TEXT NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (round_id, digest)
  )`,
];

/**
 * A round's life in one state machine (run/round-machine.ts): a claimed round carries a lease
 * (its epoch, the fence every later transition of its holder is checked against; its owner; when
 * it runs out) and a queued one the time it is due (`not_before`: a push's quiet period, a retry's
 * backoff). `attempts` now counts attempts spent (crashes, failed starts), not takes, so a live
 * round from before starts afresh, handed back (queued, due) as a shutdown would. PostgreSQL's
 * cancellation table goes: a round's cancellation is its state in `rounds`, which every lease
 * renewal reads.
 */
const roundLeases = [
  "ALTER TABLE rounds ADD COLUMN lease_epoch INTEGER NOT NULL DEFAULT 0",
  "ALTER TABLE rounds ADD COLUMN lease_owner TEXT",
  "ALTER TABLE rounds ADD COLUMN lease_expires_at BIGINT",
  "ALTER TABLE rounds ADD COLUMN not_before BIGINT",
  "UPDATE rounds SET state = 'queued', attempts = 0 WHERE state IN ('queued', 'running')",
];

/**
 * What a round reviewed against: the PR's base branch and the merge base of its head, so the
 * next round's step is measured between the two PR diffs and a base change is a full round.
 */
const reviewBase = [
  "ALTER TABLE rounds ADD COLUMN review_base_ref TEXT",
  "ALTER TABLE rounds ADD COLUMN review_merge_base TEXT",
];

/**
 * Answers in a finding's thread (`@gadfly <question>`, `@gadfly recheck`): one row per reply
 * asked in, claimed before any model is called (so a redelivery answers once), the day's rows
 * of a PR counted against its limit, and what the answer spent counted in the installation's
 * daily budget with the rounds' spend.
 */
const threadAnswers = [
  `CREATE TABLE thread_answers (
    reply_comment_id BIGINT PRIMARY KEY,
    installation_id BIGINT NOT NULL,
    owner TEXT NOT NULL,
    repo TEXT NOT NULL,
    pull_number BIGINT NOT NULL,
    fingerprint TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('question', 'recheck')),
    actor TEXT NOT NULL,
    claimed_at BIGINT NOT NULL,
    outcome TEXT,
    model TEXT,
    answer_comment_id BIGINT,
    input_tokens BIGINT NOT NULL DEFAULT 0,
    cached_input_tokens BIGINT NOT NULL DEFAULT 0,
    cache_write_tokens BIGINT NOT NULL DEFAULT 0,
    output_tokens BIGINT NOT NULL DEFAULT 0
  )`,
  "CREATE INDEX thread_answers_pull ON thread_answers (owner, repo, pull_number, claimed_at)",
  "CREATE INDEX thread_answers_installation ON thread_answers (installation_id, claimed_at)",
];

/**
 * Readers' rounds by author (recentRounds' `pushActor`, counted under lockReader at every reader
 * push): without it each push scans the installation's rounds since 00:00 UTC.
 */
const readerRounds = [
  `CREATE INDEX rounds_reader_actor ON rounds (installation_id, trigger_actor, created_at)
     WHERE trigger_kind = 'push' AND trigger_actor IS NOT NULL`,
];

/**
 * The claims `hold` handed back before the round ran (round-machine.ts), and when a worker last
 * claimed the round: a reader's round held overnight counts on the day it runs, not the day
 * it was asked for.
 */
const roundHolds = [
  "ALTER TABLE rounds ADD COLUMN holds INTEGER NOT NULL DEFAULT 0",
  "ALTER TABLE rounds ADD COLUMN claimed_at BIGINT",
];

/**
 * A thread answer's claim is leased like a round (renewed by the process answering it), so one
 * whose process died is found and said in its thread; and where that thread is.
 */
const threadAnswerLeases = [
  "ALTER TABLE thread_answers ADD COLUMN root_comment_id BIGINT",
  "ALTER TABLE thread_answers ADD COLUMN lease_expires_at BIGINT",
  // Every worker's sweep asks for these, every half lease: only the unanswered few are indexed.
  `CREATE INDEX thread_answers_unanswered ON thread_answers (lease_expires_at)
     WHERE outcome IS NULL`,
];

/** Every schema change, oldest first; append only, never edit a released one. */
export const migrations: readonly Migration[] = [
  { version: 1, name: "initial schema", sqlite: initialSchema, postgres: initialSchema },
  { version: 2, name: "work queue tables", sqlite: [], postgres: workQueueTables },
  {
    version: 3,
    name: "skipped lenses",
    sqlite: skippedLensesSqlite,
    postgres: skippedLensesPostgres,
  },
  { version: 4, name: "inline threads", sqlite: inlineThreads, postgres: inlineThreads },
  {
    version: 5,
    name: "cross-examination challenges",
    sqlite: challengesTable("INTEGER NOT NULL"),
    postgres: challengesTable("BIGSERIAL NOT NULL"),
  },
  {
    version: 6,
    name: "incremental rounds",
    sqlite: incrementalRounds,
    postgres: incrementalRounds,
  },
  { version: 7, name: "usage accounting", sqlite: usageColumns, postgres: usageColumns },
  { version: 8, name: "publish steps", sqlite: publishSteps, postgres: publishSteps },
  {
    version: 9,
    name: "finding feedback",
    sqlite: feedbackTable("INTEGER PRIMARY KEY AUTOINCREMENT"),
    postgres: feedbackTable("BIGSERIAL PRIMARY KEY"),
  },
  { version: 10, name: "github write budget", sqlite: [], postgres: tokenBuckets },
  {
    version: 11,
    name: "shared transcript texts",
    sqlite: transcriptTexts,
    postgres: transcriptTexts,
  },
  {
    version: 12,
    name: "round leases",
    sqlite: roundLeases,
    postgres: [...roundLeases, "DROP TABLE queue_cancellations"],
  },
  { version: 13, name: "review base", sqlite: reviewBase, postgres: reviewBase },
  { version: 14, name: "thread answers", sqlite: threadAnswers, postgres: threadAnswers },
  { version: 15, name: "reader rounds index", sqlite: readerRounds, postgres: readerRounds },
  { version: 16, name: "round holds and claim times", sqlite: roundHolds, postgres: roundHolds },
  {
    version: 17,
    name: "thread answer leases",
    sqlite: threadAnswerLeases,
    postgres: threadAnswerLeases,
  },
];
