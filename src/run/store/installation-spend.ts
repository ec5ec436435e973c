import type { Usage } from "../../llm/index.js";

/** One model's summed usage over some rounds: what the daily budget caps count. */
export interface ModelSpend {
  model: string;
  usage: Usage;
}

/** A row of installationSpendSql: sums as the driver gives them (PostgreSQL: numeric text). */
export interface ModelSpendRow {
  model: string;
  input_tokens: number | string | null;
  cached_input_tokens: number | string | null;
  cache_write_tokens: number | string | null;
  output_tokens: number | string | null;
}

/**
 * The installation's spend since a time, per model: the lens runs that ended since then (their
 * report keeps the cache writes, which have no column) and the challenges (cross-examination and
 * re-checks) saved since then, every repository, one round left out, and the answers given in
 * findings' threads since then (they belong to no round). Parameters, in order: installation id,
 * since (epoch ms), the round left out — bound once per table in SQLite (the threads' without
 * the round); `?` or `$n` by dialect.
 */
export function installationSpendSql(dialect: "sqlite" | "postgres", readersOnly = false): string {
  // A reader's round: a push round carrying its author (pace-push.ts in src/github). Answers in
  // threads are asked by writers only: never a reader's spend (kept in the query, so the
  // parameters stay the same).
  const readers = readersOnly ? " AND r.trigger_kind = 'push' AND r.trigger_actor IS NOT NULL" : "";
  const threads = readersOnly ? " AND 0 = 1" : "";
  const p = dialect === "sqlite" ? (_: number) => "?" : (index: number) => `$${index}`;
  const cacheWrites =
    dialect === "sqlite"
      ? "COALESCE(json_extract(l.report, '$.usage.cacheWriteTokens'), 0)"
      : "COALESCE((l.report::jsonb #>> '{usage,cacheWriteTokens}')::bigint, 0)";
  return `SELECT model, SUM(input_tokens) AS input_tokens,
      SUM(cached_input_tokens) AS cached_input_tokens,
      SUM(cache_write_tokens) AS cache_write_tokens, SUM(output_tokens) AS output_tokens
    FROM (
      SELECT l.model AS model, l.input_tokens AS input_tokens,
        l.cached_input_tokens AS cached_input_tokens, ${cacheWrites} AS cache_write_tokens,
        l.output_tokens AS output_tokens
      FROM lens_runs l JOIN rounds r ON r.id = l.round_id
      WHERE r.installation_id = ${p(1)} AND l.finished_at >= ${p(2)} AND r.id <> ${p(3)}${readers}
      UNION ALL
      SELECT c.model, COALESCE(c.input_tokens, 0), COALESCE(c.cached_input_tokens, 0),
        COALESCE(c.cache_write_tokens, 0), COALESCE(c.output_tokens, 0)
      FROM round_challenges c JOIN rounds r ON r.id = c.round_id
      WHERE r.installation_id = ${p(dialect === "sqlite" ? 4 : 1)}
        AND c.saved_at >= ${p(dialect === "sqlite" ? 5 : 2)}
        AND r.id <> ${p(dialect === "sqlite" ? 6 : 3)}${readers}
      UNION ALL
      SELECT t.model, t.input_tokens, t.cached_input_tokens, t.cache_write_tokens,
        t.output_tokens
      FROM thread_answers t
      WHERE t.model IS NOT NULL AND t.installation_id = ${p(dialect === "sqlite" ? 7 : 1)}
        AND t.claimed_at >= ${p(dialect === "sqlite" ? 8 : 2)}${threads}
    ) spend
    GROUP BY model ORDER BY model`;
}

/** The parameters of installationSpendSql for each dialect. */
export function installationSpendParams(
  dialect: "sqlite" | "postgres",
  installationId: number,
  since: Date,
  exceptRound: string | undefined,
): (number | string)[] {
  const once = [installationId, since.getTime(), exceptRound ?? ""];
  return dialect === "sqlite" ? [...once, ...once, installationId, since.getTime()] : once;
}

export function modelSpendFromRow(row: ModelSpendRow): ModelSpend {
  const tokens = (value: number | string | null) => Number(value ?? 0);
  return {
    model: row.model,
    usage: {
      inputTokens: tokens(row.input_tokens),
      cachedInputTokens: tokens(row.cached_input_tokens),
      cacheWriteTokens: tokens(row.cache_write_tokens),
      outputTokens: tokens(row.output_tokens),
    },
  };
}
