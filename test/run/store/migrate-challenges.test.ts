import BetterSqlite3 from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { migrateSqlite } from "../../../src/run/store/migrate-sqlite.js";
import { migrations } from "../../../src/run/store/migrations.js";

let database: BetterSqlite3.Database | undefined;

afterEach(() => {
  database?.close();
  database = undefined;
});

/** A database as the Gadfly before cross-examination left it, with one round and one lens run. */
function versionFourDatabase(): BetterSqlite3.Database {
  const opened = new BetterSqlite3(":memory:");
  opened.pragma("foreign_keys = ON");
  const before = migrations.filter((migration) => migration.version <= 4);
  expect(migrateSqlite(opened, ":memory:", before, 0)).toBe(4);
  opened.exec(
    `INSERT INTO rounds (id, owner, repo, installation_id, pull_number, head_sha, round_number,
       trigger_kind, trigger_delivery_id, state, created_at, updated_at)
     VALUES ('r1', 'octo-org', 'widgets', 42, 7, 'aaa111', 1, 'push', 'd-1', 'running', 1, 1)`,
  );
  opened.exec(
    `INSERT INTO lens_runs (round_id, model, lens, state, report, input_tokens, output_tokens)
     VALUES ('r1', 'glm', 'security', 'done', '{"outcome":"done"}', 120, 34)`,
  );
  return opened;
}

function insertChallenge(
  opened: BetterSqlite3.Database,
  values: {
    round?: string;
    model?: string;
    outcome: string;
    verdict: string | null;
    checked?: string | null;
  },
): void {
  opened
    .prepare(
      `INSERT INTO round_challenges
         (round_id, fingerprint, model, outcome, verdict, reason, checked, saved_order, saved_at)
       VALUES (?, 'fp', ?, ?, ?, 'why', ?, 1, 0)`,
    )
    .run(
      values.round ?? "r1",
      values.model ?? "m",
      values.outcome,
      values.verdict,
      values.checked ?? null,
    );
}

describe("migration 5, cross-examination challenges (SQLite)", () => {
  it("adds the table to a database with rounds, keeping them", () => {
    database = versionFourDatabase();
    expect(() =>
      insertChallenge(database as BetterSqlite3.Database, { outcome: "failed", verdict: null }),
    ).toThrow(/no such table/);

    expect(migrateSqlite(database, ":memory:", migrations, 0)).toBe(migrations.length);

    expect(database.prepare("SELECT id, state FROM rounds").all()).toEqual([
      // Migration 12 hands a live round back, queued, as a shutdown would.
      { id: "r1", state: "queued" },
    ]);
    expect(database.prepare("SELECT model, lens, state FROM lens_runs").all()).toEqual([
      { model: "glm", lens: "security", state: "done" },
    ]);
    insertChallenge(database, { outcome: "answered", verdict: "confirm", checked: "src/a.ts:3" });
    expect(database.prepare("SELECT COUNT(*) AS n FROM round_challenges").get()).toEqual({ n: 1 });
  });

  it("refuses a vote without an answer, an answer without a vote, and unknown outcomes or verdicts", () => {
    database = versionFourDatabase();
    migrateSqlite(database, ":memory:", migrations, 0);
    const opened = database;
    const saving = (values: Parameters<typeof insertChallenge>[1]) => () =>
      insertChallenge(opened, values);
    expect(saving({ model: "a", outcome: "failed", verdict: "confirm" })).toThrow(
      /CHECK constraint/,
    );
    expect(saving({ model: "b", outcome: "answered", verdict: null })).toThrow(/CHECK constraint/);
    expect(saving({ model: "c", outcome: "failed", verdict: null, checked: "a.ts:1" })).toThrow(
      /CHECK constraint/,
    );
    expect(saving({ model: "d", outcome: "skipped", verdict: null })).toThrow(/CHECK constraint/);
    expect(saving({ model: "e", outcome: "answered", verdict: "maybe" })).toThrow(
      /CHECK constraint/,
    );
    expect(saving({ model: "f", outcome: "cancelled", verdict: null })).not.toThrow();
    expect(saving({ model: "g", outcome: "answered", verdict: "unsure" })).not.toThrow();
  });

  it("ties challenges to their round: a known round only, one per (fingerprint, model), gone with it", () => {
    database = versionFourDatabase();
    migrateSqlite(database, ":memory:", migrations, 0);
    const opened = database;
    expect(() =>
      insertChallenge(opened, { round: "no-round", outcome: "failed", verdict: null }),
    ).toThrow(/FOREIGN KEY/);
    insertChallenge(opened, { outcome: "failed", verdict: null });
    expect(() => insertChallenge(opened, { outcome: "cancelled", verdict: null })).toThrow(
      /UNIQUE|PRIMARY KEY/,
    );
    opened.exec("DELETE FROM rounds WHERE id = 'r1'");
    expect(opened.prepare("SELECT COUNT(*) AS n FROM round_challenges").get()).toEqual({ n: 0 });
  });
});
