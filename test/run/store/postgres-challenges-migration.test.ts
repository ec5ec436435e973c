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
  "migration 5, cross-examination challenges (PostgreSQL)",
  () => {
    beforeAll(async () => {
      server = await startTestPostgres();
    });
    afterAll(async () => {
      await server?.stop();
    });

    it("upgrades a database with rounds: they stay; challenges are checked, keyed and go with their round", async () => {
      const url = (await server?.createDatabase()) ?? "";
      const pool = new pg.Pool({ connectionString: url, max: 2 });
      try {
        const before = migrations.filter((migration) => migration.version <= 4);
        expect(await applyPostgresMigrations(pool, "test", before, 0)).toBe(4);
        await pool.query(
          `INSERT INTO rounds (id, owner, repo, installation_id, pull_number, head_sha, round_number,
             trigger_kind, trigger_delivery_id, state, created_at, updated_at)
           VALUES ('r1', 'octo-org', 'widgets', 42, 7, 'aaa111', 1, 'push', 'd-1', 'running', 1, 1)`,
        );
        const save = (
          model: string,
          outcome: string,
          verdict: string | null,
          round = "r1",
          checked: string | null = null,
        ) =>
          pool.query(
            `INSERT INTO round_challenges
               (round_id, fingerprint, model, outcome, verdict, reason, checked, saved_at)
             VALUES ($1, 'fp', $2, $3, $4, 'why', $5, 0)`,
            [round, model, outcome, verdict, checked],
          );
        await expect(save("a", "failed", null)).rejects.toThrow(/does not exist/);

        expect(await applyPostgresMigrations(pool, "test", migrations, 0)).toBe(migrations.length);

        const { rows } = await pool.query<{ id: string; state: string }>(
          "SELECT id, state FROM rounds",
        );
        // Migration 12 hands a live round back, queued, as a shutdown would.
        expect(rows).toEqual([{ id: "r1", state: "queued" }]);
        await save("a", "answered", "confirm", "r1", "src/a.ts:3");
        await save("b", "failed", null);
        await expect(save("c", "failed", "refute")).rejects.toThrow(/check constraint/);
        await expect(save("c", "answered", null)).rejects.toThrow(/check constraint/);
        await expect(save("c", "cancelled", null, "r1", "a.ts:1")).rejects.toThrow(
          /check constraint/,
        );
        await expect(save("c", "skipped", null)).rejects.toThrow(/check constraint/);
        await expect(save("c", "answered", "maybe")).rejects.toThrow(/check constraint/);
        await expect(save("a", "cancelled", null)).rejects.toThrow(/duplicate key/);
        await expect(save("c", "failed", null, "no-round")).rejects.toThrow(/foreign key/);

        // The sequence numbers saves in order.
        const order = await pool.query<{ model: string }>(
          "SELECT model FROM round_challenges ORDER BY saved_order",
        );
        expect(order.rows).toEqual([{ model: "a" }, { model: "b" }]);
        await pool.query("DELETE FROM rounds WHERE id = 'r1'");
        const left = await pool.query("SELECT * FROM round_challenges");
        expect(left.rows).toEqual([]);
      } finally {
        await pool.end();
      }
    });
  },
);
