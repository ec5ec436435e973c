import type pg from "pg";
import { MIGRATIONS_TABLE, type Migration } from "./migrations.js";
import { StoreOpenError } from "./store-open-error.js";

/** Advisory-lock class of Gadfly's locks: the two-key form keeps them apart from other users'. */
export const GADFLY_LOCK_CLASS = 0x6761_6466;
const MIGRATION_LOCK = 1;

/**
 * Brings the database up to the last migration, all pending ones in one
 * transaction under an advisory lock, so replicas starting together migrate
 * once and the others wait, then see the result. A database written by a
 * newer Gadfly is refused rather than guessed at.
 */
export async function applyPostgresMigrations(
  pool: pg.Pool,
  target: string,
  list: readonly Migration[],
  appliedAt: number,
): Promise<number> {
  const known = list.at(-1)?.version ?? 0;
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock($1, $2)", [GADFLY_LOCK_CLASS, MIGRATION_LOCK]);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE} (
        version INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        applied_at BIGINT NOT NULL
      )`,
    );
    const { rows } = await client.query<{ version: number | null }>(
      `SELECT MAX(version) AS version FROM ${MIGRATIONS_TABLE}`,
    );
    const current = rows[0]?.version ?? 0;
    if (current > known) {
      throw new StoreOpenError(
        target,
        "newer-schema",
        `The run store ${target} has schema version ${current}, newer than this Gadfly knows (${known}). ` +
          "Run a Gadfly at least as new as the one that wrote it, or point GADFLY_DATABASE_URL at another database.",
      );
    }
    for (const migration of list) {
      if (migration.version <= current) continue;
      for (const statement of migration.postgres) await client.query(statement);
      await client.query(
        `INSERT INTO ${MIGRATIONS_TABLE} (version, name, applied_at) VALUES ($1, $2, $3)`,
        [migration.version, migration.name, appliedAt],
      );
    }
    await client.query("COMMIT");
    return known;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
