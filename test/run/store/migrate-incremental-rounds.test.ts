import BetterSqlite3 from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { migrateSqlite } from "../../../src/run/store/migrate-sqlite.js";
import { migrations } from "../../../src/run/store/migrations.js";
import {
  previousFindingFromRow,
  ROUND_FINDING_COLUMNS,
  type RoundFindingRow,
  type RoundRow,
  roundFromRow,
} from "../../../src/run/store/store-rows.js";

let database: BetterSqlite3.Database | undefined;

afterEach(() => {
  database?.close();
  database = undefined;
});

/** A database as Gadfly left it before incremental rounds: one round with one published finding. */
function versionFiveDatabase(): BetterSqlite3.Database {
  const opened = new BetterSqlite3(":memory:");
  opened.pragma("foreign_keys = ON");
  const before = migrations.filter((migration) => migration.version <= 5);
  expect(migrateSqlite(opened, ":memory:", before, 0)).toBe(5);
  opened.exec(
    `INSERT INTO rounds (id, owner, repo, installation_id, pull_number, head_sha, round_number,
       trigger_kind, trigger_delivery_id, state, created_at, updated_at)
     VALUES ('r1', 'octo-org', 'widgets', 42, 7, 'aaa111', 1, 'comment', 'd-1', 'completed', 1, 1)`,
  );
  opened.exec(
    `INSERT INTO round_findings (round_id, ordinal, fingerprint, title, file, line, severity)
     VALUES ('r1', 0, 'fp1', 'Token leak', 'src/a.ts', 3, 'high')`,
  );
  return opened;
}

describe("migration 6, incremental rounds (SQLite)", () => {
  it("keeps old rounds unforced and old findings without detail", () => {
    database = versionFiveDatabase();
    expect(migrateSqlite(database, ":memory:", migrations, 0)).toBe(migrations.length);

    const round = database.prepare("SELECT * FROM rounds").get() as RoundRow;
    expect(roundFromRow(round).trigger).toEqual({ kind: "comment", deliveryId: "d-1" });
    const row = database
      .prepare(`SELECT ${ROUND_FINDING_COLUMNS} FROM round_findings`)
      .get() as RoundFindingRow;
    expect(previousFindingFromRow(row)).toEqual({
      fingerprint: "fp1",
      title: "Token leak",
      file: "src/a.ts",
      line: 3,
      severity: "high",
    });
  });

  it("reads a detail it did not write (bad JSON, wrong shape) as absent, never as a guess", () => {
    const row = (detail: string): RoundFindingRow => ({
      fingerprint: "fp",
      title: "t",
      file: "a.ts",
      line: 1,
      severity: "low",
      url: null,
      detail,
    });
    const good = { endLine: 2, models: ["m"], lens: "security", confidence: "high", body: "b" };
    expect(previousFindingFromRow(row(JSON.stringify(good))).detail).toEqual(good);
    for (const bad of [
      "{",
      "null",
      JSON.stringify({ ...good, endLine: 0 }),
      JSON.stringify({ ...good, models: [] }),
      JSON.stringify({ ...good, models: [1] }),
      JSON.stringify({ ...good, confidence: "total" }),
      JSON.stringify({ ...good, body: 3 }),
    ]) {
      expect(previousFindingFromRow(row(bad)).detail, bad).toBeUndefined();
    }
  });
});
