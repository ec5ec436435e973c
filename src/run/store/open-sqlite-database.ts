import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import BetterSqlite3, { type Database } from "better-sqlite3";
import { migrateSqlite } from "./migrate-sqlite.js";
import { migrations } from "./migrations.js";
import { StoreOpenError } from "./store-open-error.js";

/**
 * Opens (creating if needed) and migrates the database, with WAL so readers
 * never block the writer, a busy timeout so concurrent writers queue instead
 * of failing, and foreign keys on. Every failure becomes a StoreOpenError.
 */
export function openSqliteDatabase(
  path: string,
  /** How long a write waits for another connection's lock before failing. */
  busyTimeoutMs: number,
  /** Recorded with each migration applied. */
  now: number,
): Database {
  let database: Database | undefined;
  try {
    mkdirSync(dirname(path), { recursive: true });
    database = new BetterSqlite3(path, { timeout: busyTimeoutMs });
    database.pragma(`busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
    // The first statement reads the header: a file that is not a database fails here.
    const mode = database.pragma("journal_mode = WAL", { simple: true });
    if (mode !== "wal") {
      throw new StoreOpenError(
        path,
        "failed",
        `The run store ${path} cannot use write-ahead logging (journal mode stays ${String(mode)}). ` +
          "Put GADFLY_DATA_DIR on a local file system.",
      );
    }
    // NORMAL with WAL survives a crash of the process (what resume is for) without an fsync
    // per commit on the event loop; a power loss can at worst lose the last lens reports,
    // which then run again on resume (measured: ~90 ms of blocking per round with FULL).
    database.pragma("synchronous = NORMAL");
    database.pragma("foreign_keys = ON");
    migrateSqlite(database, path, migrations, now);
    return database;
  } catch (error) {
    database?.close();
    throw StoreOpenError.fromCause(path, error);
  }
}
