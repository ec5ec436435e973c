import { join } from "node:path";
import type { Clock } from "../../time/index.js";
import { PostgresRunStore } from "./postgres-run-store.js";
import type { RunStore } from "./run-store.js";
import { SqliteRunStore } from "./sqlite-run-store.js";
import { StoreOpenError } from "./store-open-error.js";

export interface OpenRunStoreOptions {
  /** GADFLY_DATABASE_URL: PostgreSQL when set (and not empty), SQLite otherwise. */
  databaseUrl?: string | undefined;
  /** GADFLY_DATA_DIR, resolved: the SQLite file lives here. */
  dataDir: string;
  clock?: Pick<Clock, "now">;
}

/**
 * The run store this process uses: a shared PostgreSQL database for several
 * replicas, or the embedded SQLite file for one process. Throws
 * StoreOpenError with what the operator can do.
 */
export async function openRunStore(options: OpenRunStoreOptions): Promise<RunStore> {
  const clock = options.clock === undefined ? {} : { clock: options.clock };
  const url = options.databaseUrl?.trim() ?? "";
  if (url === "") {
    const path = join(options.dataDir, "gadfly.sqlite");
    return SqliteRunStore.open({ path, ...clock });
  }
  if (!/^postgres(ql)?:\/\//i.test(url)) {
    throw new StoreOpenError(
      "GADFLY_DATABASE_URL",
      "failed",
      "GADFLY_DATABASE_URL must be a postgres:// or postgresql:// URL; unset it to use SQLite in GADFLY_DATA_DIR.",
    );
  }
  return PostgresRunStore.open({ url, ...clock });
}
