import type { RunStore } from "../../../../src/run/store/run-store.js";
import type { FakeClock } from "../../../helpers/fake-clock.js";

/** A row written straight into `rounds`, bypassing the store's code. */
export interface RawRound {
  id: string;
  roundNumber: number;
  state: string;
}

/** One test's store location: empty when created, removed afterwards. */
export interface RunStoreFixture {
  /** Opens a store on it; called again, another instance (connection, pool) on the same data. */
  open(clock: FakeClock): Promise<RunStore>;
  /** For PR octo-org/widgets#7 at head aaa111: shows what the database itself refuses. */
  insertRawRound(round: RawRound): Promise<void>;
  /** Characters the database holds for transcripts: their rows and their shared texts. */
  storedTranscriptChars(): Promise<number>;
  /** Closes every store opened and deletes the data. */
  remove(): Promise<void>;
}

/** A RunStore implementation under the shared contract tests. */
export interface RunStoreBackend {
  name: string;
  fixture(): Promise<RunStoreFixture>;
}

export const RAW_ROUND_INSERT = `INSERT INTO rounds (id, owner, repo, installation_id, pull_number,
  head_sha, round_number, trigger_kind, trigger_delivery_id, state, created_at, updated_at)
  VALUES ($1, 'octo-org', 'widgets', 42, 7, 'aaa111', $2, 'push', 'd-x', $3, 0, 0)`;

/** What `storedTranscriptChars` reads, in either database. */
export const STORED_TRANSCRIPT_CHARS = `SELECT
  (SELECT COALESCE(SUM(LENGTH(messages)), 0) FROM transcripts) +
  (SELECT COALESCE(SUM(LENGTH(text)), 0) FROM transcript_texts) AS chars`;
