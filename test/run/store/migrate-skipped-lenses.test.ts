import BetterSqlite3 from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { migrateSqlite } from "../../../src/run/store/migrate-sqlite.js";
import { migrations } from "../../../src/run/store/migrations.js";

let database: BetterSqlite3.Database | undefined;

afterEach(() => {
  database?.close();
  database = undefined;
});

/** A database as the Gadfly before skipped lenses left it, with one round and one lens run. */
function versionTwoDatabase(): BetterSqlite3.Database {
  const opened = new BetterSqlite3(":memory:");
  opened.pragma("foreign_keys = ON");
  const before = migrations.filter((migration) => migration.version <= 2);
  expect(migrateSqlite(opened, ":memory:", before, 0)).toBe(2);
  opened.exec(
    `INSERT INTO rounds (id, owner, repo, installation_id, pull_number, head_sha, round_number,
       trigger_kind, trigger_delivery_id, state, created_at, updated_at)
     VALUES ('r1', 'octo-org', 'widgets', 42, 7, 'aaa111', 1, 'push', 'd-1', 'running', 1, 1)`,
  );
  opened.exec(
    `INSERT INTO lens_runs (round_id, model, lens, state, report, input_tokens, output_tokens,
       started_at, finished_at)
     VALUES ('r1', 'glm', 'security', 'done', '{"outcome":"done"}', 120, 34, 5, 9)`,
  );
  return opened;
}

describe("migration 3, skipped lenses (SQLite)", () => {
  it("keeps every lens run, then accepts 'skipped' and still refuses unknown states", () => {
    database = versionTwoDatabase();
    const saving = (state: string) => () =>
      database
        ?.prepare("INSERT INTO lens_runs (round_id, model, lens, state) VALUES ('r1', 'cli', ?, ?)")
        .run(`lens-${state}`, state);
    expect(saving("skipped")).toThrow(/CHECK constraint/);

    // Through migration 3 only: later ones add columns this test does not describe.
    const throughThree = migrations.filter((migration) => migration.version <= 3);
    expect(migrateSqlite(database, ":memory:", throughThree, 0)).toBe(3);

    expect(database.prepare("SELECT * FROM lens_runs").all()).toEqual([
      {
        round_id: "r1",
        model: "glm",
        lens: "security",
        state: "done",
        report: '{"outcome":"done"}',
        input_tokens: 120,
        output_tokens: 34,
        started_at: 5,
        finished_at: 9,
      },
    ]);
    expect(saving("skipped")).not.toThrow();
    expect(saving("ignored")).toThrow(/CHECK constraint/);
  });

  it("keeps the rebuilt table tied to its round: the key and the cascade still hold", () => {
    database = versionTwoDatabase();
    migrateSqlite(database, ":memory:", migrations, 0);
    expect(() =>
      database
        ?.prepare(
          "INSERT INTO lens_runs (round_id, model, lens, state) VALUES ('no-round', 'm', 'l', 'done')",
        )
        .run(),
    ).toThrow(/FOREIGN KEY/);
    expect(() =>
      database
        ?.prepare(
          "INSERT INTO lens_runs (round_id, model, lens, state) VALUES ('r1', 'glm', 'security', 'done')",
        )
        .run(),
    ).toThrow(/UNIQUE|PRIMARY KEY/);
    database.exec("DELETE FROM rounds WHERE id = 'r1'");
    expect(database.prepare("SELECT COUNT(*) AS n FROM lens_runs").get()).toEqual({ n: 0 });
  });
});
