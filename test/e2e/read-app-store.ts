import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";

/**
 * Rows the running app's SQLite store holds, read-only as it runs; none while the file is not
 * created yet or busy (callers poll with `waitFor`).
 */
export function readAppStore<Row>(
  dataDir: string,
  sql: string,
  ...params: (string | number)[]
): Row[] {
  let database: BetterSqlite3.Database | undefined;
  try {
    database = new BetterSqlite3(join(dataDir, "gadfly.sqlite"), {
      readonly: true,
      fileMustExist: true,
    });
    return database.prepare<(string | number)[], Row>(sql).all(...params);
  } catch {
    return [];
  } finally {
    database?.close();
  }
}
