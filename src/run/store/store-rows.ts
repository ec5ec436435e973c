// The rows both stores read, and how each becomes the store's shape: SQLite and PostgreSQL
// return the same columns (times as epoch milliseconds, ids as numbers), so one mapper serves both.
import type { LensReport } from "../../agent/index.js";
import type { PreviousFinding, PreviousFindingDetail } from "../../consensus/index.js";
import type { Confidence, Severity } from "../../findings/index.js";
import type { Usage } from "../../llm/index.js";
import type { ChallengeRecord } from "../cross-examine.js";
import type {
  FeedbackKind,
  PostedInline,
  RepoDismissal,
  ReviewBase,
  RoundArtifacts,
  RoundState,
  RoundTrigger,
  StoredFeedback,
  StoredRound,
  TriggerKind,
} from "./run-store.js";

/** A `rounds` row as the database returns it. */
export interface RoundRow {
  id: string;
  owner: string;
  repo: string;
  installation_id: number;
  pull_number: number;
  head_sha: string;
  round_number: number;
  trigger_kind: string;
  trigger_delivery_id: string;
  trigger_actor: string | null;
  /** 1 for `@gadfly review full` (migration 6). */
  trigger_full: number;
  state: string;
  attempts: number;
  superseded_by: string | null;
  failure: string | null;
  status_comment_id: number | null;
  consensus_comment_id: number | null;
  review_id: number | null;
  check_run_id: number | null;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
  /** Migration 12: the round's lease and when a queued round is due. */
  lease_epoch: number;
  lease_owner: string | null;
  lease_expires_at: number | null;
  not_before: number | null;
  /** Migration 13: the base branch and merge base the round reviewed against. */
  review_base_ref: string | null;
  review_merge_base: string | null;
  /** Migration 16: claims handed back by `hold` before the round ran; the last claim's time. */
  holds: number;
  claimed_at: number | null;
}

/** Maps a row to the store's shape; the CHECK constraints guarantee the enum columns. */
export function roundFromRow(row: RoundRow): StoredRound {
  const trigger: RoundTrigger = {
    kind: row.trigger_kind as TriggerKind,
    deliveryId: row.trigger_delivery_id,
  };
  if (row.trigger_actor !== null) trigger.actor = row.trigger_actor;
  if (Number(row.trigger_full) === 1) trigger.full = true;
  const artifacts: RoundArtifacts = {};
  if (row.status_comment_id !== null) artifacts.statusCommentId = row.status_comment_id;
  if (row.consensus_comment_id !== null) artifacts.consensusCommentId = row.consensus_comment_id;
  if (row.review_id !== null) artifacts.reviewId = row.review_id;
  if (row.check_run_id !== null) artifacts.checkRunId = row.check_run_id;
  return {
    id: row.id,
    repo: { owner: row.owner, repo: row.repo },
    installationId: row.installation_id,
    pullNumber: row.pull_number,
    headSha: row.head_sha,
    number: row.round_number,
    trigger,
    state: row.state as RoundState,
    attempts: row.attempts,
    leaseEpoch: Number(row.lease_epoch),
    holds: Number(row.holds),
    claimedAt: row.claimed_at === null ? null : new Date(Number(row.claimed_at)),
    notBefore: row.not_before === null ? null : new Date(Number(row.not_before)),
    supersededBy: row.superseded_by,
    failure: row.failure,
    artifacts,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    finishedAt: row.finished_at === null ? null : new Date(row.finished_at),
  };
}

/** The columns of `round_findings` that `RoundFindingRow` holds, for a SELECT. */
export const ROUND_FINDING_COLUMNS = "fingerprint, title, file, line, severity, url, detail";

/** The base a round reviewed against, when it recorded one. */
export function reviewBaseFromRow(row: RoundRow): ReviewBase | null {
  if (row.review_base_ref === null || row.review_merge_base === null) return null;
  return { ref: row.review_base_ref, mergeBaseSha: row.review_merge_base };
}

/**
 * The lenses of a round that no model finished, by name: a lens counts as reviewed when at least
 * one of its reports is `done` (a skipped, failed or cancelled one saw nothing). `parameter` is
 * the round id's placeholder in the store's dialect.
 */
export const UNFINISHED_LENSES_SQL = (parameter: string) =>
  `SELECT lens FROM lens_runs WHERE round_id = ${parameter}
   GROUP BY lens HAVING SUM(CASE WHEN state = 'done' THEN 1 ELSE 0 END) = 0 ORDER BY lens`;

/** A `round_findings` row: the fingerprint of a finding a round published. */
export interface RoundFindingRow {
  fingerprint: string;
  title: string;
  file: string;
  line: number;
  severity: string;
  url: string | null;
  /** JSON of a `PreviousFindingDetail` (migration 6); null on rows saved before it. */
  detail: string | null;
}

/** Maps a saved fingerprint back; saveFingerprints wrote `severity` from a typed Severity. */
export function previousFindingFromRow(row: RoundFindingRow): PreviousFinding {
  const finding: PreviousFinding = {
    fingerprint: row.fingerprint,
    title: row.title,
    file: row.file,
    line: row.line,
    severity: row.severity as Severity,
  };
  if (row.url !== null) finding.url = row.url;
  const detail = row.detail === null ? undefined : findingDetailFromJson(row.detail);
  if (detail !== undefined) finding.detail = detail;
  return finding;
}

/** A finding's body is kept to this many characters: enough to show it, not a model's flood. */
export const MAX_DETAIL_BODY_CHARS = 4000;

/** The JSON saved in `round_findings.detail`, its body bounded. */
export function findingDetailJson(detail: PreviousFindingDetail | undefined): string | null {
  if (detail === undefined) return null;
  return JSON.stringify({ ...detail, body: detail.body.slice(0, MAX_DETAIL_BODY_CHARS) });
}

const CONFIDENCES: ReadonlySet<string> = new Set<Confidence>(["high", "medium", "low"]);

const isStringList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((entry) => typeof entry === "string");

/**
 * Reads a saved detail back. One that does not have the shape we write (a hand-edited row,
 * a future version) reads as absent: the finding is then compared as before, never carried
 * on a guess.
 */
function findingDetailFromJson(text: string): PreviousFindingDetail | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const record = value as Record<string, unknown>;
  const { endLine, models, confirmedBy, unsure, lens, confidence, body, since, context } = record;
  if (typeof endLine !== "number" || !Number.isInteger(endLine) || endLine < 1) return undefined;
  if (!isStringList(models) || models.length === 0) return undefined;
  if (typeof lens !== "string" || typeof body !== "string") return undefined;
  if (typeof confidence !== "string" || !CONFIDENCES.has(confidence)) return undefined;
  const detail: PreviousFindingDetail = {
    endLine,
    models,
    lens,
    confidence: confidence as Confidence,
    body,
  };
  if (isStringList(confirmedBy)) detail.confirmedBy = confirmedBy;
  if (unsure === true) detail.unsure = true;
  if (typeof since === "number" && Number.isInteger(since) && since > 0) detail.since = since;
  if (typeof context === "string" && /^[0-9a-f]{64}$/.test(context)) detail.context = context;
  return detail;
}

/** The columns of `posted_inline` that `PostedInlineRow` holds, for a SELECT. */
export const POSTED_INLINE_COLUMNS = "fingerprint, comment_id, posted_at, fixed_reply_id";

/** A `posted_inline` row: an inline comment already posted for a finding of the PR. */
export interface PostedInlineRow {
  fingerprint: string;
  comment_id: number;
  posted_at: number;
  fixed_reply_id: number | null;
}

export function postedInlineFromRow(row: PostedInlineRow): PostedInline {
  const posted: PostedInline = {
    fingerprint: row.fingerprint,
    commentId: row.comment_id,
    postedAt: new Date(row.posted_at),
  };
  if (row.fixed_reply_id !== null) posted.fixedReplyId = row.fixed_reply_id;
  return posted;
}

/** The columns of `round_challenges` that `ChallengeRow` holds, for a SELECT. */
export const CHALLENGE_COLUMNS =
  "fingerprint, model, outcome, verdict, reason, checked, input_tokens, cached_input_tokens, cache_write_tokens, output_tokens, duration_ms";

/** A `round_challenges` row: one ended cross-examination challenge of a round. */
export interface ChallengeRow {
  fingerprint: string;
  model: string;
  outcome: string;
  verdict: string | null;
  reason: string;
  checked: string | null;
  /** What the session spent; null on rows saved before it was counted. */
  input_tokens: number | string | null;
  cached_input_tokens: number | string | null;
  cache_write_tokens: number | string | null;
  output_tokens: number | string | null;
  duration_ms: number | string | null;
}

/**
 * The row's values for a record: a verdict and `checked` only when it answered. The reason
 * and the place are model text, and PostgreSQL's TEXT cannot hold a NUL: both stores write
 * U+FFFD for it, so a model's stray NUL neither fails the save nor reads back differently
 * from one store to the other.
 */
export function challengeToRow(record: ChallengeRecord): ChallengeRow {
  return {
    fingerprint: record.fingerprint,
    model: record.model,
    outcome: record.outcome,
    verdict: record.outcome === "answered" ? record.verdict : null,
    reason: withoutNul(record.reason),
    checked:
      record.outcome === "answered" && record.checked !== null ? withoutNul(record.checked) : null,
    input_tokens: record.usage?.inputTokens ?? null,
    cached_input_tokens: record.usage?.cachedInputTokens ?? null,
    cache_write_tokens: record.usage?.cacheWriteTokens ?? null,
    output_tokens: record.usage?.outputTokens ?? null,
    duration_ms: record.durationMs ?? null,
  };
}

/** What a challenge row says it spent (BIGINTs come back from PostgreSQL as strings). */
function challengeCost(row: ChallengeRow): Pick<ChallengeRecord, "usage" | "durationMs"> {
  if (row.input_tokens === null || row.output_tokens === null) return {};
  const usage: Usage = {
    inputTokens: Number(row.input_tokens),
    outputTokens: Number(row.output_tokens),
  };
  if (row.cached_input_tokens !== null) usage.cachedInputTokens = Number(row.cached_input_tokens);
  if (row.cache_write_tokens !== null) usage.cacheWriteTokens = Number(row.cache_write_tokens);
  return {
    usage,
    ...(row.duration_ms === null ? {} : { durationMs: Number(row.duration_ms) }),
  };
}

function withoutNul(text: string): string {
  return text.replaceAll("\u0000", "\uFFFD");
}

type Answered = Extract<ChallengeRecord, { outcome: "answered" }>;

/** Maps a saved challenge back; the CHECKs guarantee a verdict exactly when it answered. */
export function challengeFromRow(row: ChallengeRow): ChallengeRecord {
  if (row.outcome === "answered") {
    return {
      outcome: "answered",
      fingerprint: row.fingerprint,
      model: row.model,
      verdict: row.verdict as Answered["verdict"],
      reason: row.reason,
      checked: row.checked,
      ...challengeCost(row),
    };
  }
  return {
    outcome: row.outcome as Exclude<ChallengeRecord, Answered>["outcome"],
    fingerprint: row.fingerprint,
    model: row.model,
    reason: row.reason,
    ...challengeCost(row),
  };
}

/** A `lens_runs.report` value; saveLensReport wrote it from a typed LensReport. */
export function lensReportFromRow(row: { report: string }): LensReport {
  return JSON.parse(row.report) as LensReport;
}

/** The columns of `finding_feedback` that `FeedbackRow` holds, for a SELECT. */
export const FEEDBACK_COLUMNS =
  "id, owner, repo, pull_number, fingerprint, kind, actor, reason, round_id, created_at";

/** A `finding_feedback` row: one person's feedback on one finding. */
export interface FeedbackRow {
  id: number | string;
  owner: string;
  repo: string;
  pull_number: number | string;
  fingerprint: string;
  kind: string;
  actor: string;
  reason: string | null;
  round_id: string | null;
  created_at: number | string;
}

/** The reason is a person's text: NUL becomes U+FFFD so both stores read back the same. */
export function feedbackReason(reason: string | null | undefined): string | null {
  return reason === undefined || reason === null ? null : withoutNul(reason);
}

export function feedbackFromRow(row: FeedbackRow): StoredFeedback {
  return {
    id: Number(row.id),
    repo: { owner: row.owner, repo: row.repo },
    pullNumber: Number(row.pull_number),
    fingerprint: row.fingerprint,
    kind: row.kind as FeedbackKind,
    actor: row.actor,
    reason: row.reason,
    roundId: row.round_id,
    createdAt: new Date(Number(row.created_at)),
  };
}

/**
 * Selects each finding of the repository whose latest dismiss / false-positive / undismiss
 * (by id: insertion order) is a dismissal, with the title and file its PR's latest round
 * saved. `owner` and `repo` are the dialect's two placeholders.
 */
export function repoDismissalsQuery(owner: string, repo: string): string {
  const decisive = "('dismiss', 'false_positive', 'undismiss')";
  const published = (column: string) =>
    `(SELECT rf.${column} FROM round_findings rf JOIN rounds r ON r.id = rf.round_id
      WHERE r.owner = f.owner AND r.repo = f.repo AND r.pull_number = f.pull_number
        AND rf.fingerprint = f.fingerprint
      ORDER BY r.round_number DESC LIMIT 1) AS ${column}`;
  return `SELECT f.pull_number, f.fingerprint, f.kind, f.actor, f.reason, f.created_at,
      ${published("title")}, ${published("file")}, ${published("line")}, ${published("detail")}
    FROM finding_feedback f
    WHERE f.owner = ${owner} AND f.repo = ${repo} AND f.kind IN ('dismiss', 'false_positive')
      AND f.id = (SELECT MAX(g.id) FROM finding_feedback g
        WHERE g.owner = f.owner AND g.repo = f.repo AND g.pull_number = f.pull_number
          AND g.fingerprint = f.fingerprint AND g.kind IN ${decisive})
    ORDER BY f.created_at, f.id`;
}

/** A row of `repoDismissalsQuery`. */
export interface RepoDismissalRow {
  pull_number: number | string;
  fingerprint: string;
  kind: string;
  actor: string;
  reason: string | null;
  created_at: number | string;
  title: string | null;
  file: string | null;
  line: number | string | null;
  detail: string | null;
}

export function repoDismissalFromRow(row: RepoDismissalRow): RepoDismissal {
  const detail = row.detail === null ? undefined : findingDetailFromJson(row.detail);
  return {
    pullNumber: Number(row.pull_number),
    fingerprint: row.fingerprint,
    kind: row.kind as RepoDismissal["kind"],
    actor: row.actor,
    reason: row.reason,
    createdAt: new Date(Number(row.created_at)),
    title: row.title,
    file: row.file,
    line: row.line === null ? null : Number(row.line),
    endLine: detail?.endLine ?? null,
    context: detail?.context ?? null,
  };
}
