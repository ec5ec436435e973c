import type { Database } from "better-sqlite3";
import { MIGRATIONS_TABLE, type Migration } from "./migrations.js";
import { StoreOpenError } from "./store-open-error.js";

/**
 * Brings the database up to the last migration, all pending ones in one
 * immediate transaction (so two processes opening the same file never both
 * migrate), and returns the schema version. A database written by a newer
 * Gadfly is refused rather than guessed at.
 */
export function migrateSqlite(
  database: Database,
  path: string,
  list: readonly Migration[],
  appliedAt: number,
): number {
  const known = list.at(-1)?.version ?? 0;
  const migrate = database.transaction((): number => {
    database.exec(
      `CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE} (
        version INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        applied_at BIGINT NOT NULL
      )`,
    );
    const row = database
      .prepare<[], { version: number | null }>(
        `SELECT MAX(version) AS version FROM ${MIGRATIONS_TABLE}`,
      )
      .get();
    const current = row?.version ?? 0;
    if (current > known) {
      throw new StoreOpenError(
        path,
        "newer-schema",
        `The run store ${path} has schema version ${current}, newer than this Gadfly knows (${known}). ` +
          "Run a Gadfly at least as new as the one that wrote it, or set GADFLY_DATA_DIR to another directory.",
      );
    }
    const record = database.prepare<[number, string, number]>(
      `INSERT INTO ${MIGRATIONS_TABLE} (version, name, applied_at) VALUES (?, ?, ?)`,
    );
    for (const migration of list) {
      if (migration.version <= current) continue;
      for (const statement of migration.sqlite) database.exec(statement);
      record.run(migration.version, migration.name, appliedAt);
    }
    // Mirrored for sqlite3 shell users; also a write on every open, so a file
    // SQLite silently opened read-only fails here rather than at the first round.
    database.pragma(`user_version = ${known}`);
    return known;
  });
  return migrate.immediate();
}
