import BetterSqlite3 from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { migrateSqlite } from "../../../src/run/store/migrate-sqlite.js";
import { MIGRATIONS_TABLE, migrations } from "../../../src/run/store/migrations.js";
import { SqliteRunStore } from "../../../src/run/store/sqlite-run-store.js";
import { StoreOpenError } from "../../../src/run/store/store-open-error.js";
import { lensReport } from "../../builders/lens-report.js";
import { FakeClock } from "../../helpers/fake-clock.js";
import {
  type TemporaryStoreDirectory,
  temporaryStoreDirectory,
} from "../../helpers/temporary-store-directory.js";

interface AppliedRow {
  version: number;
  name: string;
  applied_at: number;
}

function applied(path: string): AppliedRow[] {
  const raw = new BetterSqlite3(path, { readonly: true });
  try {
    return raw.prepare<[], AppliedRow>(`SELECT * FROM ${MIGRATIONS_TABLE} ORDER BY version`).all();
  } finally {
    raw.close();
  }
}

function tableNames(database: BetterSqlite3.Database): string[] {
  return database
    .prepare<[], { name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name",
    )
    .all()
    .map((row) => row.name);
}

let temporary: TemporaryStoreDirectory;

beforeEach(async () => {
  temporary = await temporaryStoreDirectory();
});

afterEach(async () => {
  await temporary.remove();
});

describe("migrations", () => {
  it("are numbered 1, 2, 3… and written for both dialects", () => {
    expect(migrations.map((migration) => migration.version)).toEqual(
      migrations.map((_, index) => index + 1),
    );
    // The schema of the store proper is the same on both; only the work queue's tables
    // (migration 2) and GitHub's write budget (10) are PostgreSQL's alone: SQLite mode keeps
    // them in memory.
    for (const migration of migrations) {
      expect(migration.postgres.length).toBeGreaterThan(0);
      if (![2, 10].includes(migration.version)) expect(migration.sqlite.length).toBeGreaterThan(0);
    }
  });

  it("apply from an empty data dir, in WAL mode with foreign keys on", async () => {
    const clock = new FakeClock();
    const store = temporary.track(await SqliteRunStore.open(temporary.path, clock));
    expect(applied(temporary.path)).toEqual(
      migrations.map((migration) => ({
        version: migration.version,
        name: migration.name,
        applied_at: clock.now(),
      })),
    );
    const raw = new BetterSqlite3(temporary.path);
    try {
      expect(raw.pragma("journal_mode", { simple: true })).toBe("wal");
      expect(tableNames(raw)).toEqual(
        expect.arrayContaining(["deliveries", "rounds", "lens_runs", "transcripts"]),
      );
    } finally {
      raw.close();
    }
    await expect(store.saveLensReport("no-such-round", lensReport())).rejects.toThrow(
      /FOREIGN KEY/,
    );
  });

  it("are applied once: reopening changes nothing and keeps the data", async () => {
    const clock = new FakeClock();
    const first = await SqliteRunStore.open(temporary.path, clock);
    await first.recordDelivery("d-1", "pull_request", new Date(clock.now()));
    await first.close();
    const before = applied(temporary.path);

    await clock.advanceAndSettle(60_000);
    const second = temporary.track(await SqliteRunStore.open(temporary.path, clock));
    expect(applied(temporary.path)).toEqual(before);
    expect(await second.recordDelivery("d-1", "pull_request", new Date(clock.now()))).toBe(
      "duplicate",
    );
  });

  it("roll back together when one fails", () => {
    const database = new BetterSqlite3(":memory:");
    try {
      const list = [
        { version: 1, name: "good", sqlite: ["CREATE TABLE good (id TEXT)"], postgres: [] },
        { version: 2, name: "bad", sqlite: ["CREATE TABLE broken (id TEXT"], postgres: [] },
      ];
      expect(() => migrateSqlite(database, ":memory:", list, 0)).toThrow(/syntax error|incomplete/);
      expect(tableNames(database)).toEqual([]);
      // Nothing recorded either: the migrations table went with the failed batch.
      expect(() => database.prepare(`SELECT * FROM ${MIGRATIONS_TABLE}`)).toThrow(/no such table/);
    } finally {
      database.close();
    }
  });

  it("refuse a database written by a newer Gadfly, naming the path and versions", async () => {
    const store = await SqliteRunStore.open(temporary.path);
    await store.close();
    const raw = new BetterSqlite3(temporary.path);
    const future = migrations.length + 1;
    raw
      .prepare(`INSERT INTO ${MIGRATIONS_TABLE} (version, name, applied_at) VALUES (?, ?, 0)`)
      .run(future, "from the future");
    raw.close();

    const opening = SqliteRunStore.open(temporary.path);
    await expect(opening).rejects.toBeInstanceOf(StoreOpenError);
    await expect(opening).rejects.toMatchObject({
      reason: "newer-schema",
      path: temporary.path,
      message: expect.stringContaining(`schema version ${future}, newer than this Gadfly knows`),
    });
  });
});
