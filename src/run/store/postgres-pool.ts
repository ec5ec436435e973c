import { createRequire } from "node:module";
import type pg from "pg";

// `pg` is required when a pool is first made, not at start-up: a deployment on SQLite never
// loads it (with pg-boss, some 30 MB of a process's memory).
const require = createRequire(import.meta.url);
/** The `pg` module, loaded at the first call. */
export const loadPg = (): typeof pg => require("pg") as typeof pg;

/** Where a PostgreSQL pool connects, and how: the store, the queue and the doctor share it. */
export interface PostgresConnection {
  /** `postgres://user:password@host:port/database`; the password never reaches a message. */
  url: string;
  /** Connections this process may hold; the server's max_connections is shared by every replica. */
  maxConnections?: number | undefined;
  /** How long connecting may take before the attempt fails. */
  connectTimeoutMs?: number | undefined;
  /** Shown in pg_stat_activity, so an operator can tell Gadfly's connections apart. */
  applicationName?: string | undefined;
  /** An idle connection dropped by the server; the next query reconnects. */
  onIdleError?: ((error: Error) => void) | undefined;
}

const INT8_OID = 20;

/**
 * A connection pool whose BIGINT columns come back as numbers, as SQLite
 * returns them: ids and epoch milliseconds stay far below 2^53. The parser is
 * set on this pool only, never globally, so other users of `pg` are unaffected.
 */
export function createPostgresPool(options: PostgresConnection): pg.Pool {
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

/**
 * Runs `work` on a client taken from the pool. While checked out a client has no listener of the
 * pool's, so a server that ends the connection (a restart, a failover: 57P01) would raise an
 * 'error' event nobody hears — an uncaught exception. Here it is heard (`onError`), the statement
 * in flight fails as usual, and the broken client is destroyed, not returned to the pool.
 */
export async function withPoolClient<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
  onError: (error: Error) => void = () => undefined,
): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  const listener = (error: Error) => {
    broken = error;
    onError(error);
  };
  client.on("error", listener);
  try {
    return await work(client);
  } catch (error) {
    broken ??= isConnectionLost(error) ? (error as Error) : undefined;
    throw error;
  } finally {
    client.off("error", listener);
    client.release(broken);
  }
}

/** `work` in one transaction on a client of its own (rolled back if it throws). */
export async function inTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
  begin = "BEGIN",
): Promise<T> {
  return withPoolClient(pool, async (client) => {
    await client.query(begin);
    try {
      const result = await work(client);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw error;
    }
  });
}

/** The server ended the session or the socket broke: the client cannot be reused. */
export function isConnectionLost(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return (
    code === "57P01" ||
    code === "57P02" ||
    code === "57P03" ||
    code === "ECONNRESET" ||
    code === "ECONNREFUSED" ||
    code === "EPIPE" ||
    (error instanceof Error && /Connection terminated/i.test(error.message))
  );
}

/**
 * Runs `work` again when the connection it used was lost (a server restart or failover ends
 * every session): up to `attempts` tries, 100, 200, 400 ms… apart, on a fresh connection each
 * time. For statements that may run twice: upserts, fenced transitions, reads.
 */
export async function retryOnConnectionLoss<T>(
  work: () => Promise<T>,
  options: { attempts?: number; sleep?: (milliseconds: number) => Promise<void> } = {},
): Promise<T> {
  const attempts = options.attempts ?? 5;
  const wait =
    options.sleep ??
    ((milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds)));
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts || !isConnectionLost(error)) throw error;
      await wait(100 * 2 ** (attempt - 1));
    }
  }
}
