import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrations } from "../../../src/run/store/migrations.js";
import { applyPostgresMigrations } from "../../../src/run/store/postgres-migrations.js";
import {
  postgresUnavailableReason,
  startTestPostgres,
  type TestPostgres,
} from "../../helpers/postgres-server.js";

let server: TestPostgres | undefined;

describe.skipIf(postgresUnavailableReason() !== null)(
  "migration 3, skipped lenses (PostgreSQL)",
  () => {
    beforeAll(async () => {
      server = await startTestPostgres();
    });
    afterAll(async () => {
      await server?.stop();
    });

    it("upgrades a database with lens runs: they stay, 'skipped' is accepted, nonsense is not", async () => {
      const url = (await server?.createDatabase()) ?? "";
      const pool = new pg.Pool({ connectionString: url, max: 2 });
      try {
        const before = migrations.filter((migration) => migration.version <= 2);
        expect(await applyPostgresMigrations(pool, "test", before, 0)).toBe(2);
        await pool.query(
          `INSERT INTO rounds (id, owner, repo, installation_id, pull_number, head_sha, round_number,
             trigger_kind, trigger_delivery_id, state, created_at, updated_at)
           VALUES ('r1', 'octo-org', 'widgets', 42, 7, 'aaa111', 1, 'push', 'd-1', 'running', 1, 1)`,
        );
        const save = (lens: string, state: string) =>
          pool.query(
            "INSERT INTO lens_runs (round_id, model, lens, state) VALUES ('r1', 'm', $1, $2)",
            [lens, state],
          );
        await save("security", "done");
        await expect(save("performance", "skipped")).rejects.toThrow(/check constraint/);

        expect(await applyPostgresMigrations(pool, "test", migrations, 0)).toBe(migrations.length);

        const { rows } = await pool.query<{ lens: string; state: string }>(
          "SELECT lens, state FROM lens_runs ORDER BY lens",
        );
        expect(rows).toEqual([{ lens: "security", state: "done" }]);
        await save("performance", "skipped");
        await expect(save("correctness", "ignored")).rejects.toThrow(/check constraint/);
      } finally {
        await pool.end();
      }
    });
  },
);
