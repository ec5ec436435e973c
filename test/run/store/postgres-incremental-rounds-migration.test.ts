import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrations } from "../../../src/run/store/migrations.js";
import { applyPostgresMigrations } from "../../../src/run/store/postgres-migrations.js";
import {
  previousFindingFromRow,
  ROUND_FINDING_COLUMNS,
  type RoundFindingRow,
  type RoundRow,
  roundFromRow,
} from "../../../src/run/store/store-rows.js";
import {
  postgresUnavailableReason,
  startTestPostgres,
  type TestPostgres,
} from "../../helpers/postgres-server.js";

let server: TestPostgres | undefined;

describe.skipIf(postgresUnavailableReason() !== null)(
  "migration 6, incremental rounds (PostgreSQL)",
  () => {
    beforeAll(async () => {
      server = await startTestPostgres();
    });
    afterAll(async () => {
      await server?.stop();
    });

    it("keeps old rounds unforced and old findings without detail", async () => {
      const url = (await server?.createDatabase()) ?? "";
      const pool = new pg.Pool({ connectionString: url, max: 2 });
      try {
        const before = migrations.filter((migration) => migration.version <= 5);
        expect(await applyPostgresMigrations(pool, "test", before, 0)).toBe(5);
        await pool.query(
          `INSERT INTO rounds (id, owner, repo, installation_id, pull_number, head_sha, round_number,
             trigger_kind, trigger_delivery_id, state, created_at, updated_at)
           VALUES ('r1', 'octo-org', 'widgets', 42, 7, 'aaa111', 1, 'comment', 'd-1', 'completed', 1, 1)`,
        );
        await pool.query(
          `INSERT INTO round_findings (round_id, ordinal, fingerprint, title, file, line, severity)
           VALUES ('r1', 0, 'fp1', 'Token leak', 'src/a.ts', 3, 'high')`,
        );

        expect(await applyPostgresMigrations(pool, "test", migrations, 0)).toBe(migrations.length);

        const rounds = await pool.query<RoundRow>("SELECT * FROM rounds");
        expect(rounds.rows.map((row) => roundFromRow(row).trigger)).toEqual([
          { kind: "comment", deliveryId: "d-1" },
        ]);
        const findings = await pool.query<RoundFindingRow>(
          `SELECT ${ROUND_FINDING_COLUMNS} FROM round_findings`,
        );
        expect(findings.rows.map(previousFindingFromRow)).toEqual([
          { fingerprint: "fp1", title: "Token leak", file: "src/a.ts", line: 3, severity: "high" },
        ]);
      } finally {
        await pool.end();
      }
    });
  },
);
