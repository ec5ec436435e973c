import { join } from "node:path";
import type { Clock } from "../../time/index.js";
import { PostgresRunStore } from "./postgres-run-store.js";
import type { RunStore } from "./run-store.js";
import { SqliteRunStore } from "./sqlite-run-store.js";
import { StoreOpenError } from "./store-open-error.js";

/** Where the run store is: the two settings an operator gives. */
export interface StoreLocation {
  /** GADFLY_DATABASE_URL: PostgreSQL when set (and not empty), SQLite otherwise. */
  databaseUrl?: string | undefined;
  /** GADFLY_DATA_DIR, resolved: the SQLite file lives here. */
  dataDir: string;
}

/**
 * The run store this process uses: a shared PostgreSQL database for several
 * replicas, or the embedded SQLite file for one process. Throws
 * StoreOpenError with what the operator can do.
 */
export async function openRunStore(
  location: StoreLocation,
  clock?: Pick<Clock, "now">,
): Promise<RunStore> {
  const url = location.databaseUrl?.trim() ?? "";
  if (url === "") return SqliteRunStore.open(join(location.dataDir, "gadfly.sqlite"), clock);
  if (!/^postgres(ql)?:\/\//i.test(url)) {
    throw new StoreOpenError(
      "GADFLY_DATABASE_URL",
      "failed",
      "GADFLY_DATABASE_URL must be a postgres:// or postgresql:// URL; unset it to use SQLite in GADFLY_DATA_DIR.",
    );
  }
  return PostgresRunStore.open({ url }, clock);
}
