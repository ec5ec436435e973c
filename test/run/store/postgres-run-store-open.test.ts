import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIGRATIONS_TABLE, migrations } from "../../../src/run/store/migrations.js";
import { openRunStore } from "../../../src/run/store/open-run-store.js";
import { applyPostgresMigrations } from "../../../src/run/store/postgres-migrations.js";
import { createPostgresPool } from "../../../src/run/store/postgres-pool.js";
import { PostgresRunStore } from "../../../src/run/store/postgres-run-store.js";
import { SqliteRunStore } from "../../../src/run/store/sqlite-run-store.js";
import { StoreOpenError } from "../../../src/run/store/store-open-error.js";
import { FakeClock } from "../../helpers/fake-clock.js";
import {
  postgresUnavailableReason,
  startTestPostgres,
  type TestPostgres,
} from "../../helpers/postgres-server.js";

async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 1));
    });
  });
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

describe("openRunStore", () => {
  it("opens SQLite in the data dir when no database URL is set", async () => {
    const directory = await mkdtemp(join(tmpdir(), "gadfly-open-"));
    try {
      for (const databaseUrl of [undefined, "", "  "]) {
        const store = await openRunStore({ databaseUrl, dataDir: directory });
        expect(store).toBeInstanceOf(SqliteRunStore);
        await store.close();
      }
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it("refuses a URL that is not PostgreSQL's, without echoing it", async () => {
    const error = await openRunStore({
      databaseUrl: "mysql://gadfly:hunter2@db/gadfly",
      dataDir: "/nonexistent",
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StoreOpenError);
    expect(String((error as Error).message)).toMatch(/postgres:\/\//);
    expect(String((error as Error).message)).not.toContain("hunter2");
  });

  it("names an unreachable server without its password", async () => {
    const port = await closedPort();
    const url = `postgres://gadfly:hunter2@127.0.0.1:${port}/gadfly`;
    const error = await openRunStore({ databaseUrl: url, dataDir: "/nonexistent" }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(StoreOpenError);
    const message = (error as StoreOpenError).message;
    expect(message).toContain(`postgres://gadfly@127.0.0.1:${port}/gadfly`);
    expect(message).toMatch(/Cannot reach/);
    expect(message).not.toContain("hunter2");
  });
});

describe.skipIf(postgresUnavailableReason() !== null)("PostgresRunStore.open", () => {
  let server: TestPostgres;

  beforeAll(async () => {
    server = await startTestPostgres();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("migrates once when several replicas open a fresh database together", async () => {
    const url = await server.createDatabase();
    const clock = new FakeClock();
    const stores = await Promise.all(
      Array.from({ length: 4 }, () => PostgresRunStore.open({ url, maxConnections: 2 }, clock)),
    );
    try {
      const rows = await query<{ version: number; name: string }>(
        url,
        `SELECT version, name FROM ${MIGRATIONS_TABLE} ORDER BY version`,
      );
      expect(rows).toEqual(migrations.map(({ version, name }) => ({ version, name })));
      const { round } = await (stores[3] as PostgresRunStore).startRound({
        repo: { owner: "octo-org", repo: "widgets" },
        installationId: 9_000_000_123,
        pullNumber: 7,
        headSha: "aaa111",
        trigger: { kind: "push", deliveryId: "d-1" },
      });
      // BIGINT columns come back as numbers, as from SQLite.
      expect((await (stores[0] as PostgresRunStore).findRound(round.id))?.installationId).toBe(
        9_000_000_123,
      );
    } finally {
      for (const store of stores) await store.close();
    }
  });

  it("rolls all pending migrations back together when one fails", async () => {
    const url = await server.createDatabase();
    const pool = createPostgresPool({ url });
    try {
      const list = [
        { version: 1, name: "good", sqlite: [], postgres: ["CREATE TABLE good (id TEXT)"] },
        { version: 2, name: "bad", sqlite: [], postgres: ["CREATE TABLE broken (id TEXT"] },
      ];
      await expect(applyPostgresMigrations(pool, "test", list, 0)).rejects.toThrow(/syntax/);
      const { rows } = await pool.query<{ name: string }>(
        "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'",
      );
      // Not even the migrations table: it went with the failed batch.
      expect(rows).toEqual([]);
    } finally {
      await pool.end();
    }
  });

  it("refuses a database written by a newer Gadfly", async () => {
    const url = await server.createDatabase();
    await (await PostgresRunStore.open({ url })).close();
    const next = migrations.length + 1;
    await query(url, `INSERT INTO ${MIGRATIONS_TABLE} VALUES (${next}, 'from the future', 0)`);
    const error = await PostgresRunStore.open({ url }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StoreOpenError);
    expect(error).toMatchObject({ reason: "newer-schema" });
    expect((error as Error).message).toContain(`schema version ${next}`);
  });

  it("says which database is missing", async () => {
    const url = new URL(await server.createDatabase());
    url.pathname = "/no_such_database";
    const error = await openRunStore({
      databaseUrl: url.toString(),
      dataDir: "/nonexistent",
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StoreOpenError);
    expect((error as Error).message).toMatch(
      /no_such_database.*refused|refused.*no_such_database/s,
    );
  });
});
