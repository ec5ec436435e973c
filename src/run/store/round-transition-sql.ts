import { ROUND_TRANSITIONS, type RoundState, type RoundTransition } from "../round-machine.js";

export type SqlDialect = "sqlite" | "postgres";

/** A statement with named parameters, as each driver takes them. */
export interface CompiledStatement {
  /** SQLite: `@name` placeholders; PostgreSQL: `$1…` in the order of `names`. */
  text: string;
  names: readonly string[];
}

/** The transitions a holder of the round's lease (or a claimer) takes with one UPDATE. */
export type RowTransition = Exclude<RoundTransition, "start" | "supersede">;

/**
 * The UPDATE of one transition, its WHERE built from the rule in `round-machine.ts` (the states it
 * leaves, and its guards: the lease's epoch, the round being due, the lease having run out), so a
 * stale worker's write and an illegal transition are refused by the database in the same statement
 * that would make them. Parameters: `id`, `now` (the lease clock, ms), `stamp` (the store's clock,
 * ms, for `updated_at`/`finished_at`), and per transition `epoch`, `owner`, `lease_ms`,
 * `delay_ms`, `failure`, `superseded_by`. RETURNING the row, so the caller sees the state it made.
 */
export function roundTransitionSql(
  dialect: SqlDialect,
  transition: RowTransition,
  ending?: Extract<RoundState, "completed" | "failed" | "cancelled">,
): CompiledStatement {
  const rule = ROUND_TRANSITIONS[transition];
  const where = [`id = :id`, `state IN (${rule.from.map((state) => `'${state}'`).join(", ")})`];
  for (const guard of rule.guards) {
    if (guard === "fenced") where.push("lease_epoch = :epoch");
    if (guard === "due") where.push("(not_before IS NULL OR not_before <= :now)");
    if (guard === "lease-expired")
      where.push("(lease_expires_at IS NULL OR lease_expires_at <= :now)");
  }
  const set = setClause(dialect, transition, ending);
  return compile(dialect, `UPDATE rounds SET ${set} WHERE ${where.join(" AND ")} RETURNING *`);
}

function setClause(
  dialect: SqlDialect,
  transition: RowTransition,
  ending: string | undefined,
): string {
  const rule = ROUND_TRANSITIONS[transition];
  const attempts = rule.spendsAttempt ? "attempts = attempts + 1, " : "";
  if (rule.newLease) {
    return `state = 'running', ${attempts}lease_epoch = lease_epoch + 1, lease_owner = :owner,
      lease_expires_at = :now + :lease_ms, not_before = NULL, updated_at = :stamp,
      claimed_at = :stamp`;
  }
  switch (transition) {
    case "renew":
      return "lease_expires_at = :now + :lease_ms";
    case "bring-forward": {
      const least = dialect === "sqlite" ? "MIN" : "LEAST";
      return `not_before = CASE WHEN not_before IS NULL THEN NULL
        ELSE ${least}(not_before, :now + :delay_ms) END, updated_at = :stamp`;
    }
    case "release":
      return `state = 'queued', lease_owner = NULL, lease_expires_at = NULL, not_before = :now,
        updated_at = :stamp`;
    case "retry":
      return `state = 'queued', ${attempts}lease_owner = NULL, lease_expires_at = NULL,
        not_before = :now + :delay_ms, updated_at = :stamp`;
    case "hold":
      return `state = 'queued', holds = holds + 1, lease_owner = NULL, lease_expires_at = NULL,
        not_before = :now + :delay_ms, updated_at = :stamp`;
    default: {
      if (ending === undefined) throw new Error(`${transition} needs the state it ends in`);
      return `state = '${ending}', failure = :failure,
        superseded_by = COALESCE(:superseded_by, superseded_by), lease_owner = NULL,
        lease_expires_at = NULL, updated_at = :stamp, finished_at = :stamp`;
    }
  }
}

/** The WHERE of the supersede transition (with the pull request's key and the new head). */
export function supersedableStates(): string {
  return ROUND_TRANSITIONS.supersede.from.map((state) => `'${state}'`).join(", ");
}

/**
 * `:name` placeholders to the driver's: SQLite binds `@name` from an object; PostgreSQL binds
 * `$n` positionally, each name once however often it appears. Typed where PostgreSQL cannot
 * infer a parameter's type from its use (`:now`, `:superseded_by`, `:failure`).
 */
function compile(dialect: SqlDialect, sql: string): CompiledStatement {
  const names: string[] = [];
  const text = sql.replace(/:([a-z_]+)/g, (_match, name: string) => {
    if (dialect === "sqlite") return `@${name}`;
    let index = names.indexOf(name);
    if (index === -1) {
      names.push(name);
      index = names.length - 1;
    }
    const placeholder = `$${index + 1}${POSTGRES_CASTS[name] ?? ""}`;
    // No lease clock given: the database's, so workers' clocks never disagree on a lease.
    return name === "now" ? `COALESCE(${placeholder}, ${DATABASE_NOW_MS})` : placeholder;
  });
  if (dialect === "sqlite") {
    for (const match of sql.matchAll(/:([a-z_]+)/g)) {
      const name = match[1] as string;
      if (!names.includes(name)) names.push(name);
    }
  }
  return { text, names };
}

const DATABASE_NOW_MS = "(extract(epoch from now()) * 1000)::bigint";

const POSTGRES_CASTS: Record<string, string> = {
  now: "::bigint",
  stamp: "::bigint",
  lease_ms: "::bigint",
  delay_ms: "::bigint",
  epoch: "::integer",
  owner: "::text",
  failure: "::text",
  superseded_by: "::text",
};

/** A compiled statement's values: an object of its names for SQLite, positional for PostgreSQL. */
export function statementValues(
  statement: CompiledStatement,
  dialect: SqlDialect,
  values: Readonly<Record<string, string | number | null>>,
): Record<string, string | number | null> | (string | number | null)[] {
  const missing = statement.names.filter((name) => !(name in values));
  if (missing.length > 0) throw new Error(`missing SQL parameters: ${missing.join(", ")}`);
  if (dialect === "postgres") return statement.names.map((name) => values[name] ?? null);
  return Object.fromEntries(statement.names.map((name) => [name, values[name] ?? null]));
}

/**
 * A writer's trigger (a comment, a re-run) joining a reader's queued or running round (a push
 * carrying its author, isReaderRound) makes the round the writer's: from then on it counts
 * against neither the reader limits nor readers' share of the daily caps, and runs against the
 * whole cap, as a maintainer's `@gadfly review` promises. A no-op on any other round.
 * Parameters: the trigger's kind, delivery, actor, full (0/1), the round's id.
 */
export function adoptWriterTriggerSql(dialect: "sqlite" | "postgres"): string {
  const p = dialect === "sqlite" ? (_: number) => "?" : (index: number) => `$${index}`;
  return `UPDATE rounds SET trigger_kind = ${p(1)}, trigger_delivery_id = ${p(2)},
      trigger_actor = ${p(3)}, trigger_full = ${p(4)}
    WHERE id = ${p(5)} AND trigger_kind = 'push' AND trigger_actor IS NOT NULL
    RETURNING *`;
}

export function adoptWriterTriggerParams(
  roundId: string,
  trigger: { kind: string; deliveryId: string; actor?: string; full?: boolean },
): (string | number | null)[] {
  return [
    trigger.kind,
    trigger.deliveryId,
    trigger.actor ?? null,
    trigger.full === true ? 1 : 0,
    roundId,
  ];
}
