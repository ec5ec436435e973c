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

type Param = (index: number) => string;
const paramOf = (dialect: "sqlite" | "postgres"): Param =>
  dialect === "sqlite" ? () => "?" : (index) => `$${index}`;

/** Whether the reply was claimed already: (reply comment id). */
export function threadAnswerExistsSql(dialect: "sqlite" | "postgres"): string {
  return `SELECT 1 AS found FROM thread_answers WHERE reply_comment_id = ${paramOf(dialect)(1)}`;
}

/** The PR's requests claimed since a time: (owner, repo, pull number, since ms). */
export function threadAnswersSinceSql(dialect: "sqlite" | "postgres"): string {
  const p = paramOf(dialect);
  return `SELECT COUNT(*) AS claimed FROM thread_answers
    WHERE owner = ${p(1)} AND repo = ${p(2)} AND pull_number = ${p(3)} AND claimed_at >= ${p(4)}`;
}

/** Claims a request; a race on the same reply inserts nothing (the primary key). */
export function insertThreadAnswerSql(dialect: "sqlite" | "postgres"): string {
  const p = paramOf(dialect);
  return `INSERT INTO thread_answers
      (reply_comment_id, installation_id, owner, repo, pull_number, fingerprint, kind, actor,
       claimed_at)
    VALUES (${[1, 2, 3, 4, 5, 6, 7, 8, 9].map(p).join(", ")})
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
  ];
}

/** Records how a claimed request ended. */
export function finishThreadAnswerSql(dialect: "sqlite" | "postgres"): string {
  const p = paramOf(dialect);
  return `UPDATE thread_answers SET outcome = ${p(1)}, model = ${p(2)},
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
