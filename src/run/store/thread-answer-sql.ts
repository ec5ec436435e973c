import type { Usage } from "../../llm/index.js";
import type { RepoRef } from "./run-store.js";

/** One `@gadfly` request in a finding's thread, as the store claims it before any model call. */
export interface ThreadAnswerClaim {
  /** The reply that asked: one answer per reply, however often GitHub delivers it. */
  replyCommentId: number;
  installationId: number;
  repo: RepoRef;
  pullNumber: number;
  fingerprint: string;
  kind: "question" | "recheck";
  actor: string;
  /** Our inline comment that opened the thread: where an interrupted answer says so. */
  rootCommentId: number;
  /** The answering process renews its claim within this; past it the claim was abandoned. */
  leaseMs: number;
}

/** A claimed request whose answerer stopped renewing it (crashed, or lost its database). */
export interface StaleThreadAnswer {
  replyCommentId: number;
  installationId: number;
  repo: RepoRef;
  pullNumber: number;
  rootCommentId: number;
  kind: "question" | "recheck";
}

/** How a claimed request ended: who answered, what it cost, the reply posted (if any). */
export interface ThreadAnswerResult {
  outcome: "answered" | "failed";
  model: string | null;
  usage: Usage;
  answerCommentId: number | null;
}

/** A claim's answer: a new request (claimed now), one claimed before, or over the PR's limit. */
export type ThreadAnswerClaimOutcome = "claimed" | "duplicate" | "limit";

/** SQLite's `?` binds in order of appearance: each statement names its parameters in order. */
type Param = (index: number) => string;
const paramOf = (dialect: "sqlite" | "postgres"): Param =>
  dialect === "sqlite" ? () => "?" : (index) => `$${index}`;

/** Whether the reply was claimed already: (reply comment id). */
export function threadAnswerExistsSql(dialect: "sqlite" | "postgres"): string {
  return `SELECT 1 AS found FROM thread_answers WHERE reply_comment_id = ${paramOf(dialect)(1)}`;
}

/**
 * The PR's requests claimed since a time that count against its limit: (owner, repo, pull
 * number, since ms). One interrupted before it was answered is given back.
 */
export function threadAnswersSinceSql(dialect: "sqlite" | "postgres"): string {
  const p = paramOf(dialect);
  return `SELECT COUNT(*) AS claimed FROM thread_answers
    WHERE owner = ${p(1)} AND repo = ${p(2)} AND pull_number = ${p(3)} AND claimed_at >= ${p(4)}
      AND (outcome IS NULL OR outcome <> 'interrupted')`;
}

/** Claims a request; a race on the same reply inserts nothing (the primary key). */
export function insertThreadAnswerSql(dialect: "sqlite" | "postgres"): string {
  const p = paramOf(dialect);
  return `INSERT INTO thread_answers
      (reply_comment_id, installation_id, owner, repo, pull_number, fingerprint, kind, actor,
       claimed_at, root_comment_id, lease_expires_at)
    VALUES (${[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map(p).join(", ")})
    ON CONFLICT (reply_comment_id) DO NOTHING`;
}

export function insertThreadAnswerParams(
  claim: ThreadAnswerClaim,
  now: number,
): (number | string)[] {
  return [
    claim.replyCommentId,
    claim.installationId,
    claim.repo.owner,
    claim.repo.repo,
    claim.pullNumber,
    claim.fingerprint,
    claim.kind,
    claim.actor,
    now,
    claim.rootCommentId,
    now + claim.leaseMs,
  ];
}

/** The claim holds `leaseMs` more, if it is still unanswered: (expires at ms, reply id). */
export function renewThreadAnswerSql(dialect: "sqlite" | "postgres"): string {
  const p = paramOf(dialect);
  return `UPDATE thread_answers SET lease_expires_at = ${p(1)}
    WHERE reply_comment_id = ${p(2)} AND outcome IS NULL`;
}

/** Unanswered claims whose lease ran out, oldest first: (now ms, at most). */
export function staleThreadAnswersSql(dialect: "sqlite" | "postgres"): string {
  const p = paramOf(dialect);
  return `SELECT reply_comment_id, installation_id, owner, repo, pull_number, root_comment_id, kind
    FROM thread_answers
    WHERE outcome IS NULL AND lease_expires_at IS NOT NULL AND lease_expires_at <= ${p(1)}
      AND root_comment_id IS NOT NULL
    ORDER BY claimed_at LIMIT ${p(2)}`;
}

export interface StaleThreadAnswerRow {
  reply_comment_id: number | string;
  installation_id: number | string;
  owner: string;
  repo: string;
  pull_number: number | string;
  root_comment_id: number | string;
  kind: string;
}

export function staleThreadAnswerFromRow(row: StaleThreadAnswerRow): StaleThreadAnswer {
  return {
    replyCommentId: Number(row.reply_comment_id),
    installationId: Number(row.installation_id),
    repo: { owner: row.owner, repo: row.repo },
    pullNumber: Number(row.pull_number),
    rootCommentId: Number(row.root_comment_id),
    kind: row.kind === "recheck" ? "recheck" : "question",
  };
}

/**
 * Takes an abandoned claim to say so in its thread: once, by whoever updates it first, and only
 * while its lease is still run out: (now ms, reply id).
 */
export function interruptThreadAnswerSql(dialect: "sqlite" | "postgres"): string {
  const p = paramOf(dialect);
  return `UPDATE thread_answers SET outcome = 'interrupted'
    WHERE lease_expires_at <= ${p(1)} AND reply_comment_id = ${p(2)} AND outcome IS NULL`;
}

/**
 * Records how a claimed request ended. Its spend is kept even when a sweep took it as
 * interrupted meanwhile (a model paid for is counted); the outcome then stays `interrupted`.
 */
export function finishThreadAnswerSql(dialect: "sqlite" | "postgres"): string {
  const p = paramOf(dialect);
  return `UPDATE thread_answers SET
      outcome = CASE WHEN outcome = 'interrupted' THEN outcome ELSE ${p(1)} END, model = ${p(2)},
      answer_comment_id = ${p(3)}, input_tokens = ${p(4)}, cached_input_tokens = ${p(5)},
      cache_write_tokens = ${p(6)}, output_tokens = ${p(7)}
    WHERE reply_comment_id = ${p(8)}`;
}

export function finishThreadAnswerParams(
  replyCommentId: number,
  result: ThreadAnswerResult,
): (number | string | null)[] {
  return [
    result.outcome,
    result.model,
    result.answerCommentId,
    result.usage.inputTokens,
    result.usage.cachedInputTokens ?? 0,
    result.usage.cacheWriteTokens ?? 0,
    result.usage.outputTokens,
    replyCommentId,
  ];
}
