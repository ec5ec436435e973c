import { createPostgresPool } from "../run/store/index.js";
import { type DoctorCheck, doctorCheck } from "./doctor-check.js";

/**
 * With GADFLY_DATABASE_URL: the server answers, and how far Gadfly's schema is (read
 * only: the app migrates on start). The message names the host, never the password.
 */
export async function checkDatabase(
  databaseUrl: string | null,
  timeoutMs: number,
): Promise<DoctorCheck> {
  const title = "database";
  if (databaseUrl === null) {
    return doctorCheck(
      "database",
      title,
      "skip",
      "GADFLY_DATABASE_URL not set: SQLite in the data directory",
    );
  }
  const target = describeTarget(databaseUrl);
  const pool = createPostgresPool({
    url: databaseUrl,
    maxConnections: 1,
    connectTimeoutMs: timeoutMs,
    applicationName: "gadfly-doctor",
  });
  try {
    // Two statements: a query naming a table that does not exist fails when planned.
    const present = await pool.query<{ present: boolean }>(
      "SELECT to_regclass('gadfly_schema_migrations') IS NOT NULL AS present",
    );
    const schema =
      present.rows[0]?.present === true
        ? ((
            await pool.query<{ version: number | null }>(
              "SELECT max(version) AS version FROM gadfly_schema_migrations",
            )
          ).rows[0]?.version ?? null)
        : null;
    return doctorCheck(
      "database",
      title,
      "pass",
      schema === null
        ? `${target} answers; no Gadfly tables yet (the first start creates them)`
        : `${target} answers; schema version ${schema}`,
    );
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return doctorCheck(
      "database",
      title,
      "fail",
      `${target}: ${typeof code === "string" ? code : "cannot connect"}`,
      "check GADFLY_DATABASE_URL (host, port, user, password, database) and that the server runs",
    );
  } finally {
    await pool.end().catch(() => undefined);
  }
}

/** The URL without its password or query. */
function describeTarget(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return "GADFLY_DATABASE_URL (unparseable)";
  }
}
