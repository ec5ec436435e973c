import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import pg from "pg";
import {
  postgresUnavailableReason,
  startTestPostgres,
  type TestPostgres,
} from "../helpers/postgres-server.js";

/*
 * The two stores an app process can run on, as the process-level suites drive them: the
 * environment that points an app at a store of its own, and reads of that store as it runs.
 * PostgreSQL is there only where a server can be started (`.ci/run` starts one).
 */

export interface Backend {
  name: "sqlite" | "postgres";
  /** The app's environment for this store (a database or a data directory of its own). */
  env(dataDir: string): Promise<Record<string, string>>;
  /** Rows of the app's store. */
  query<Row>(dataDir: string, sql: string, ...params: (string | number)[]): Promise<Row[]>;
  /** A statement run on the app's store (a trigger a test plants). */
  exec(dataDir: string, sql: string): Promise<void>;
  close(): Promise<void>;
}

function sqliteBackend(): Backend {
  return {
    name: "sqlite",
    env: async (dataDir) => ({ GADFLY_DATA_DIR: dataDir }),
    async query<Row>(dataDir: string, sql: string, ...params: (string | number)[]) {
      const database = new BetterSqlite3(join(dataDir, "gadfly.sqlite"), { readonly: true });
      try {
        return database
          .prepare<(string | number)[], Row>(sql.replace(/\$\d+/g, "?"))
          .all(...params);
      } finally {
        database.close();
      }
    },
    async exec(dataDir, sql) {
      const database = new BetterSqlite3(join(dataDir, "gadfly.sqlite"));
      try {
        database.exec(sql);
      } finally {
        database.close();
      }
    },
    close: async () => undefined,
  };
}

async function postgresBackend(): Promise<Backend> {
  const server: TestPostgres = await startTestPostgres();
  const urls = new Map<string, string>();
  const run = async <Row>(url: string, sql: string, params: unknown[] = []): Promise<Row[]> => {
    const client = new pg.Client({ connectionString: url });
    client.on("error", () => undefined);
    await client.connect();
    try {
      return (await client.query(sql, params)).rows as Row[];
    } finally {
      await client.end();
    }
  };
  return {
    name: "postgres",
    async env(dataDir) {
      const url = await server.createDatabase();
      urls.set(dataDir, url);
      return { GADFLY_DATA_DIR: dataDir, GADFLY_DATABASE_URL: url };
    },
    query: async <Row>(dataDir: string, sql: string, ...params: (string | number)[]) =>
      run<Row>(urls.get(dataDir) ?? "", sql, params),
    async exec(dataDir, sql) {
      await run(urls.get(dataDir) ?? "", sql);
    },
    close: () => server.stop(),
  };
}

export const STORE_BACKENDS: [label: string, open: () => Promise<Backend>][] = [
  ["SQLite", async () => sqliteBackend()],
];
if (postgresUnavailableReason() === null) STORE_BACKENDS.push(["PostgreSQL", postgresBackend]);
