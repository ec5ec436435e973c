import type { Database, Statement } from "better-sqlite3";

/**
 * A database's statements, each compiled on first use and kept: better-sqlite3 compiles on every
 * `prepare`, and a round's per-lens and per-step writes (lens runs, transcripts, publish steps)
 * come dozens at a time. Keyed by the SQL text, which holds placeholders and never values, so
 * the cache stays as small as the store's list of queries.
 */
export class StatementCache {
  private readonly database: Database;
  private readonly statements = new Map<string, Statement<unknown[], unknown>>();

  constructor(database: Database) {
    this.database = database;
  }

  prepare<P extends unknown[] = unknown[], R = unknown>(sql: string): Statement<P, R> {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.database.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement as Statement<P, R>;
  }
}
