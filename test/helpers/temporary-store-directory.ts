import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SqliteRunStore } from "../../src/run/store/sqlite-run-store.js";

export interface TemporaryStoreDirectory {
  directory: string;
  /** `<directory>/data/gadfly.sqlite`: the data dir does not exist yet, as on a first start. */
  path: string;
  /** Stores opened by the test, closed by `remove`. */
  track(store: SqliteRunStore): SqliteRunStore;
  remove(): Promise<void>;
}

/** A fresh temp dir for one test's database files. */
export async function temporaryStoreDirectory(): Promise<TemporaryStoreDirectory> {
  const directory = await mkdtemp(join(tmpdir(), "gadfly-store-"));
  const opened: SqliteRunStore[] = [];
  return {
    directory,
    path: join(directory, "data", "gadfly.sqlite"),
    track(store) {
      opened.push(store);
      return store;
    },
    async remove() {
      for (const store of opened) await store.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
