// What the scoreboard reads from the store over a time window, and the SQL that reads it. Both
// stores run the same four queries; only how a lens report's JSON is read differs by dialect.
import type { PreviousFinding } from "../../consensus/index.js";
import type { RepoRef, RoundState } from "./run-store.js";
import {
  previousFindingFromRow,
  ROUND_FINDING_COLUMNS,
  type RoundFindingRow,
} from "./store-rows.js";

/** A round of the window, without the fields the scoreboard has no use for. */
export interface ScoreboardRound {
  id: string;
  repo: RepoRef;
  pullNumber: number;
  headSha: string;
  number: number;
  state: RoundState;
  createdAt: number;
  finishedAt: number | null;
}

/** One (model, lens) of a round, with what it spent. `model` is the configured model. */
export interface ScoreboardLensRun {
  roundId: string;
  model: string;
  lens: string;
  state: "running" | "done" | "failed" | "cancelled" | "skipped";
  /** The fallback model that answered when the lens failed over, else null. */
  answeredBy: string | null;
  /** Findings the lens reported (after its verify pass), before clustering. */
  findings: number;
  inputTokens: number;
  cachedInputTokens: number;
  cacheWriteTokens: number;
  outputTokens: number;
  /** The lens's wall time; null when not measured. */
  durationMs: number | null;
}

/** A finding a round published (its cluster), as `saveFingerprints` stored it. */
export interface ScoreboardFinding {
  roundId: string;
  finding: PreviousFinding;
}

/** One ended cross-examination (or re-check: fingerprint `recheck:…`) of a round. */
export interface ScoreboardChallenge {
  roundId: string;
  fingerprint: string;
  model: string;
  outcome: "answered" | "failed" | "cancelled";
  verdict: "confirm" | "refute" | "unsure" | null;
  inputTokens: number;
  cachedInputTokens: number;
  cacheWriteTokens: number;
  outputTokens: number;
  savedAt: number;
}

/** Everything of the rounds created since the window's start (one repository, or all). */
export interface ScoreboardRows {
  /** Oldest first. */
  rounds: ScoreboardRound[];
  lensRuns: ScoreboardLensRun[];
  /** By round (oldest first), in the order saved. */
  findings: ScoreboardFinding[];
  /** By round (oldest first), in the order saved. */
  challenges: ScoreboardChallenge[];
}

export type ScoreboardDialect = "sqlite" | "postgres";

/** The four SELECTs, parameters `since`, then `owner` and `repo` when a repository is given. */
export interface ScoreboardQueries {
  rounds: string;
  lensRuns: string;
  findings: string;
  challenges: string;
}

/**
 * The queries for a dialect. `param(n)` spells the n-th parameter (1: since, 2: owner,
 * 3: repo). The report JSON is read in the database so that lens texts never cross the wire.
 */
export function scoreboardQueries(
  dialect: ScoreboardDialect,
  param: (n: 1 | 2 | 3) => string,
  filtered: boolean,
): ScoreboardQueries {
  const window = `r.created_at >= ${param(1)}${filtered ? ` AND r.owner = ${param(2)} AND r.repo = ${param(3)}` : ""}`;
  const json =
    dialect === "sqlite"
      ? {
          answeredBy: "json_extract(l.report, '$.answeredBy')",
          cacheWrite: "COALESCE(json_extract(l.report, '$.usage.cacheWriteTokens'), 0)",
          findings: "COALESCE(json_array_length(l.report, '$.findings'), 0)",
        }
      : {
          answeredBy: "(l.report::json ->> 'answeredBy')",
          cacheWrite: "COALESCE((l.report::json -> 'usage' ->> 'cacheWriteTokens')::bigint, 0)",
          findings: "COALESCE(json_array_length(l.report::json -> 'findings'), 0)",
        };
  return {
    rounds: `SELECT r.id, r.owner, r.repo, r.pull_number, r.head_sha, r.round_number, r.state,
        r.created_at, r.finished_at
      FROM rounds r WHERE ${window} ORDER BY r.created_at, r.id`,
    lensRuns: `SELECT l.round_id, l.model, l.lens, l.state, ${json.answeredBy} AS answered_by,
        ${json.findings} AS findings, l.input_tokens, l.cached_input_tokens,
        ${json.cacheWrite} AS cache_write_tokens, l.output_tokens, l.duration_ms
      FROM lens_runs l JOIN rounds r ON r.id = l.round_id
      WHERE ${window} ORDER BY r.created_at, l.round_id, l.model, l.lens`,
    findings: `SELECT f.round_id, ${ROUND_FINDING_COLUMNS.split(", ")
      .map((column) => `f.${column}`)
      .join(", ")}
      FROM round_findings f JOIN rounds r ON r.id = f.round_id
      WHERE ${window} ORDER BY r.created_at, f.round_id, f.ordinal`,
    challenges: `SELECT c.round_id, c.fingerprint, c.model, c.outcome, c.verdict,
        COALESCE(c.input_tokens, 0) AS input_tokens,
        COALESCE(c.cached_input_tokens, 0) AS cached_input_tokens,
        COALESCE(c.cache_write_tokens, 0) AS cache_write_tokens,
        COALESCE(c.output_tokens, 0) AS output_tokens, c.saved_at
      FROM round_challenges c JOIN rounds r ON r.id = c.round_id
      WHERE ${window} ORDER BY r.created_at, c.round_id, c.saved_order`,
  };
}

interface ScoreboardRoundRow {
  id: string;
  owner: string;
  repo: string;
  pull_number: number;
  head_sha: string;
  round_number: number;
  state: string;
  created_at: number;
  finished_at: number | null;
}

interface ScoreboardLensRunRow {
  round_id: string;
  model: string;
  lens: string;
  state: string;
  answered_by: string | null;
  findings: number;
  input_tokens: number;
  cached_input_tokens: number;
  cache_write_tokens: number;
  output_tokens: number;
  duration_ms: number | null;
}

interface ScoreboardFindingRow extends RoundFindingRow {
  round_id: string;
}

interface ScoreboardChallengeRow {
  round_id: string;
  fingerprint: string;
  model: string;
  outcome: string;
  verdict: string | null;
  input_tokens: number;
  cached_input_tokens: number;
  cache_write_tokens: number;
  output_tokens: number;
  saved_at: number;
}

/** The raw rows of the four queries, as either database returns them. */
export interface ScoreboardRawRows {
  rounds: readonly unknown[];
  lensRuns: readonly unknown[];
  findings: readonly unknown[];
  challenges: readonly unknown[];
}

/** Maps the rows; the CHECK constraints guarantee the enum columns. */
export function scoreboardRowsFrom(raw: ScoreboardRawRows): ScoreboardRows {
  return {
    rounds: (raw.rounds as ScoreboardRoundRow[]).map((row) => ({
      id: row.id,
      repo: { owner: row.owner, repo: row.repo },
      pullNumber: Number(row.pull_number),
      headSha: row.head_sha,
      number: Number(row.round_number),
      state: row.state as RoundState,
      createdAt: Number(row.created_at),
      finishedAt: row.finished_at === null ? null : Number(row.finished_at),
    })),
    lensRuns: (raw.lensRuns as ScoreboardLensRunRow[]).map((row) => ({
      roundId: row.round_id,
      model: row.model,
      lens: row.lens,
      state: row.state as ScoreboardLensRun["state"],
      answeredBy: typeof row.answered_by === "string" ? row.answered_by : null,
      findings: Number(row.findings),
      inputTokens: Number(row.input_tokens),
      cachedInputTokens: Number(row.cached_input_tokens),
      cacheWriteTokens: Number(row.cache_write_tokens),
      outputTokens: Number(row.output_tokens),
      durationMs: row.duration_ms === null ? null : Number(row.duration_ms),
    })),
    findings: (raw.findings as ScoreboardFindingRow[]).map((row) => ({
      roundId: row.round_id,
      finding: previousFindingFromRow(row),
    })),
    challenges: (raw.challenges as ScoreboardChallengeRow[]).map((row) => ({
      roundId: row.round_id,
      fingerprint: row.fingerprint,
      model: row.model,
      outcome: row.outcome as ScoreboardChallenge["outcome"],
      verdict: row.verdict as ScoreboardChallenge["verdict"],
      inputTokens: Number(row.input_tokens),
      cachedInputTokens: Number(row.cached_input_tokens),
      cacheWriteTokens: Number(row.cache_write_tokens),
      outputTokens: Number(row.output_tokens),
      savedAt: Number(row.saved_at),
    })),
  };
}
