import { createRequire } from "node:module";
import type pg from "pg";

// `pg` is required when a pool is first made, not at start-up: a deployment on SQLite never
// loads it (with pg-boss, some 30 MB of a process's memory).
const require = createRequire(import.meta.url);
/** The `pg` module, loaded at the first call. */
export const loadPg = (): typeof pg => require("pg") as typeof pg;

export interface PostgresPoolOptions {
  /** `postgres://user:password@host:port/database`; the password never reaches a message. */
  url: string;
  /** Connections this process may hold; the server's max_connections is shared by every replica. */
  maxConnections?: number;
  /** How long connecting may take before the attempt fails. */
  connectTimeoutMs?: number;
  /** Shown in pg_stat_activity, so an operator can tell Gadfly's connections apart. */
  applicationName?: string;
  /** An idle connection dropped by the server; the next query reconnects. */
  onIdleError?: (error: Error) => void;
}

const INT8_OID = 20;

/**
 * A connection pool whose BIGINT columns come back as numbers, as SQLite
 * returns them: ids and epoch milliseconds stay far below 2^53. The parser is
 * set on this pool only, never globally, so other users of `pg` are unaffected.
 */
export function createPostgresPool(options: PostgresPoolOptions): pg.Pool {
  const { Pool, types } = loadPg();
  const pool = new Pool({
    connectionString: options.url,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
    application_name: options.applicationName ?? "gadfly",
    types: {
      getTypeParser: ((oid: number, format?: "text" | "binary") =>
        oid === INT8_OID
          ? (value: string) => Number(value)
          : types.getTypeParser(oid, format ?? "text")) as typeof types.getTypeParser,
    },
  });
  // Without a listener an idle client's error would crash the process.
  pool.on("error", (error) => options.onIdleError?.(error));
  return pool;
}

/** The URL without its password or query, safe for messages and logs. */
export function describePostgresTarget(url: string): string {
  try {
    const parsed = new URL(url);
    const user = parsed.username === "" ? "" : `${decodeURIComponent(parsed.username)}@`;
    return `${parsed.protocol}//${user}${parsed.host}${parsed.pathname}`;
  } catch {
    return "(an unparseable GADFLY_DATABASE_URL)";
  }
}
