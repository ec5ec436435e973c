import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { migrateSqlite } from "../../../src/run/store/migrate-sqlite.js";
import { migrations } from "../../../src/run/store/migrations.js";
import { applyPostgresMigrations } from "../../../src/run/store/postgres-migrations.js";
import { PostgresRunStore } from "../../../src/run/store/postgres-run-store.js";
import type { RunStore } from "../../../src/run/store/run-store.js";
import { SqliteRunStore } from "../../../src/run/store/sqlite-run-store.js";
import { FakeClock } from "../../helpers/fake-clock.js";
import {
  postgresUnavailableReason,
  startTestPostgres,
  type TestPostgres,
} from "../../helpers/postgres-server.js";
import {
  type TemporaryStoreDirectory,
  temporaryStoreDirectory,
} from "../../helpers/temporary-store-directory.js";

/*
 * Migration 12 moves a round's life into the store (leases, due times). Rounds that an older
 * release left live were owned by its queue (pg-boss jobs, or the process's memory), which the new
 * release no longer reads: each must come back queued, due at once, with its attempts reset (an
 * upgrade is a deploy, never a failure), and a worker must be able to claim it. Ended rounds stay
 * as they were.
 */

const BEFORE = migrations.filter((migration) => migration.version <= 11);

/** Rounds as an older release left them: two live (one with attempts spent), three ended. */
const ROUNDS: { id: string; state: string; attempts: number }[] = [
  { id: "waiting", state: "queued", attempts: 2 },
  { id: "mid-round", state: "running", attempts: 3 },
  { id: "done", state: "completed", attempts: 1 },
  { id: "broken", state: "failed", attempts: 3 },
  { id: "old-head", state: "cancelled", attempts: 0 },
];

function insertRounds(sql: string[]): string[] {
  return ROUNDS.map(
    (round, index) =>
      `INSERT INTO rounds (id, owner, repo, installation_id, pull_number, head_sha, round_number,
         trigger_kind, trigger_delivery_id, state, attempts, created_at, updated_at)
       VALUES ('${round.id}', 'octo-org', 'widgets', 42, ${index + 1}, 'sha${index}', 1, 'push',
         'd-${index}', '${round.state}', ${round.attempts}, 1, 1)`,
  ).concat(sql);
}

const EXPECTED = [
  { id: "broken", state: "failed", attempts: 3, lease_epoch: 0, not_before: null },
  { id: "done", state: "completed", attempts: 1, lease_epoch: 0, not_before: null },
  { id: "mid-round", state: "queued", attempts: 0, lease_epoch: 0, not_before: null },
  { id: "old-head", state: "cancelled", attempts: 0, lease_epoch: 0, not_before: null },
  { id: "waiting", state: "queued", attempts: 0, lease_epoch: 0, not_before: null },
];

const SELECT = "SELECT id, state, attempts, lease_epoch, not_before FROM rounds ORDER BY id";

/** What a worker sees after the upgrade: both live rounds due, and each claimed once. */
async function expectClaimable(store: RunStore): Promise<void> {
  const due = await store.dueRounds();
  expect(due.map((round) => [round.roundId, round.state, round.dueInMs]).sort()).toEqual([
    ["mid-round", "queued", 0],
    ["waiting", "queued", 0],
  ]);
  for (const id of ["mid-round", "waiting"]) {
    const claim = await store.claimRound(id, { owner: "worker-1", leaseMs: 60_000 });
    expect(claim.kind, id).toBe("claimed");
  }
}

describe("migration 12, round leases (SQLite)", () => {
  let temporary: TemporaryStoreDirectory;
  beforeEach(async () => {
    temporary = await temporaryStoreDirectory();
  });
  afterEach(async () => {
    await temporary.remove();
  });

  it("hands every live round back queued, due at once, attempts reset; ended rounds unchanged", async () => {
    await mkdir(dirname(temporary.path), { recursive: true });
    const database = new BetterSqlite3(temporary.path);
    expect(migrateSqlite(database, temporary.path, BEFORE, 0)).toBe(11);
    for (const statement of insertRounds([])) database.exec(statement);
    database.close();

    const store = temporary.track(await SqliteRunStore.open(temporary.path, new FakeClock()));
    const raw = new BetterSqlite3(temporary.path, { readonly: true });
    try {
      expect(raw.prepare(SELECT).all()).toEqual(EXPECTED);
    } finally {
      raw.close();
    }
    await expectClaimable(store);
  });
});

describe.skipIf(postgresUnavailableReason() !== null)(
  "migration 12, round leases (PostgreSQL)",
  () => {
    let server: TestPostgres | undefined;
    beforeAll(async () => {
      server = await startTestPostgres();
    });
    afterAll(async () => {
      await server?.stop();
    });

    it("does the same, and drops the cancellations table the old queue read", async () => {
      const url = (await server?.createDatabase()) ?? "";
      const pool = new pg.Pool({ connectionString: url, max: 2 });
      try {
        expect(await applyPostgresMigrations(pool, "test", BEFORE, 0)).toBe(11);
        for (const statement of insertRounds([])) await pool.query(statement);
        const store = await PostgresRunStore.open({ url }, new FakeClock());
        try {
          const { rows } = await pool.query(SELECT);
          expect(rows.map((row) => ({ ...row, lease_epoch: Number(row.lease_epoch) }))).toEqual(
            EXPECTED,
          );
          const { rows: tables } = await pool.query(
            "SELECT to_regclass('queue_cancellations') AS name",
          );
          expect(tables).toEqual([{ name: null }]);
          await expectClaimable(store);
        } finally {
          await store.close();
        }
      } finally {
        await pool.end();
      }
    });
  },
);
