import BetterSqlite3 from "better-sqlite3";
import { SqliteRunStore } from "../../../../src/run/store/sqlite-run-store.js";
import { temporaryStoreDirectory } from "../../../helpers/temporary-store-directory.js";
import {
  RAW_ROUND_INSERT,
  type RunStoreBackend,
  STORED_TRANSCRIPT_CHARS,
} from "./run-store-backend.js";

/** SQLite: a fresh file in a temp dir per test. */
export const sqliteStoreBackend: RunStoreBackend = {
  name: "SqliteRunStore",
  async fixture() {
    const temporary = await temporaryStoreDirectory();
    return {
      open: async (clock) => temporary.track(await SqliteRunStore.open(temporary.path, clock)),
      async insertRawRound(round) {
        const raw = new BetterSqlite3(temporary.path);
        try {
          raw
            .prepare(RAW_ROUND_INSERT.replace(/\$\d/g, "?"))
            .run(round.id, round.roundNumber, round.state);
        } finally {
          raw.close();
        }
      },
      async storedTranscriptChars() {
        const raw = new BetterSqlite3(temporary.path, { readonly: true });
        try {
          return Number(
            (raw.prepare(STORED_TRANSCRIPT_CHARS).get() as { chars: number | bigint }).chars,
          );
        } finally {
          raw.close();
        }
      },
      remove: () => temporary.remove(),
    };
  },
};
