import pg from "pg";
import { PostgresRunStore } from "../../../../src/run/store/postgres-run-store.js";
import type { RunStore } from "../../../../src/run/store/run-store.js";
import {
  RAW_ROUND_INSERT,
  type RunStoreBackend,
  STORED_TRANSCRIPT_CHARS,
} from "./run-store-backend.js";

// DELETE, not TRUNCATE: on a few rows it is far faster; rounds cascade to their lenses and findings.
const EMPTY_TABLES =
  "DELETE FROM deliveries; DELETE FROM rounds; DELETE FROM posted_inline; DELETE FROM listed_unplaced;" +
  " DELETE FROM finding_feedback";

/**
 * PostgreSQL: one database per test file (from `databaseUrl`, read when a test
 * starts), emptied after each test; every `open` is its own pool.
 */
export function postgresStoreBackend(databaseUrl: () => string): RunStoreBackend {
  return {
    name: "PostgresRunStore",
    async fixture() {
      const url = databaseUrl();
      const opened: RunStore[] = [];
      const raw = async (sql: string, values: unknown[] = []) => {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        try {
          return (await client.query(sql, values)).rows;
        } finally {
          await client.end();
        }
      };
      return {
        async open(clock) {
          const store = await PostgresRunStore.open({ url, maxConnections: 4 }, clock);
          opened.push(store);
          return store;
        },
        async insertRawRound(round) {
          await raw(RAW_ROUND_INSERT, [round.id, round.roundNumber, round.state]);
        },
        async storedTranscriptChars() {
          const [row] = await raw(STORED_TRANSCRIPT_CHARS);
          return Number((row as { chars: string | number }).chars);
        },
        async remove() {
          for (const store of opened.splice(0)) await store.close();
          await raw(EMPTY_TABLES).catch((error: unknown) => {
            // Nothing was opened, so nothing was migrated: there is nothing to empty.
            if (!(error instanceof Error && /does not exist/.test(error.message))) throw error;
          });
        },
      };
    },
  };
}
