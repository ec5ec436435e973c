import { StoreOpenError } from "./store-open-error.js";

/** SQLSTATEs (and socket codes) that mean the server or the database cannot be used as given. */
const NOT_WRITABLE = new Set(["42501", "25006", "53100"]);
const UNREACHABLE = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "EHOSTUNREACH",
]);
const REFUSED_LOGIN = new Set(["28000", "28P01"]);

/**
 * Classifies an error thrown while connecting to or migrating the PostgreSQL
 * store into one clear line naming the target (never its password) and what
 * the operator can do.
 */
export function postgresOpenError(target: string, cause: unknown): StoreOpenError {
  if (cause instanceof StoreOpenError) return cause;
  const code = errorCode(cause);
  const detail = cause instanceof Error && cause.message !== "" ? cause.message : code || "unknown";
  if (UNREACHABLE.has(code) || /timeout/i.test(detail)) {
    return new StoreOpenError(
      target,
      "failed",
      `Cannot reach the PostgreSQL run store ${target} (${detail}). ` +
        "Check that the server is up and that GADFLY_DATABASE_URL names the right host and port.",
      { cause },
    );
  }
  if (REFUSED_LOGIN.has(code) || code === "3D000") {
    return new StoreOpenError(
      target,
      "failed",
      `The PostgreSQL server refused the run store ${target} (${detail}). ` +
        "Check the user, password and database name in GADFLY_DATABASE_URL.",
      { cause },
    );
  }
  if (NOT_WRITABLE.has(code)) {
    return new StoreOpenError(
      target,
      "not-writable",
      `Cannot create or write the run store's tables in ${target} (${detail}). ` +
        "Grant the user CREATE on the database (for the migrations) and write access to its tables.",
      { cause },
    );
  }
  return new StoreOpenError(target, "failed", `Cannot open the run store ${target} (${detail}).`, {
    cause,
  });
}

function errorCode(error: unknown): string {
  if (typeof error === "object" && error !== null && "code" in error) {
    const { code } = error;
    if (typeof code === "string") return code;
  }
  return "";
}
