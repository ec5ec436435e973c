export type StoreOpenReason = "not-writable" | "corrupt" | "newer-schema" | "failed";

const NOT_WRITABLE_CODES = new Set(["EACCES", "EPERM", "EROFS", "ENOTDIR", "EEXIST"]);

/**
 * The run store could not be opened: says which file, why, and what the
 * operator can do, so the process stops with one clear line instead of
 * restarting into the same stack trace.
 */
export class StoreOpenError extends Error {
  override readonly name = "StoreOpenError";
  readonly path: string;
  readonly reason: StoreOpenReason;

  constructor(path: string, reason: StoreOpenReason, message: string, options?: ErrorOptions) {
    super(message, options);
    this.path = path;
    this.reason = reason;
  }

  /** Classifies an error thrown while creating, opening or migrating the database file. */
  static fromCause(path: string, cause: unknown): StoreOpenError {
    if (cause instanceof StoreOpenError) return cause;
    const code = errorCode(cause);
    const detail = cause instanceof Error ? cause.message : String(cause);
    if (code === "SQLITE_NOTADB" || code.startsWith("SQLITE_CORRUPT")) {
      return new StoreOpenError(
        path,
        "corrupt",
        `The run store ${path} is not a readable SQLite database (${detail}). ` +
          `Move it and its -wal/-shm files aside (e.g. mv ${path} ${path}.corrupt) and start again: ` +
          "a fresh store is created, and rounds that were in progress are not resumed.",
        { cause },
      );
    }
    if (
      NOT_WRITABLE_CODES.has(code) ||
      code === "SQLITE_CANTOPEN" ||
      code.startsWith("SQLITE_READONLY") ||
      code === "SQLITE_PERM" ||
      code === "SQLITE_AUTH"
    ) {
      return new StoreOpenError(
        path,
        "not-writable",
        `Cannot create or write the run store ${path} (${detail}). ` +
          "Make the file and its directory writable by this user, or set GADFLY_DATA_DIR to a writable directory.",
        { cause },
      );
    }
    return new StoreOpenError(path, "failed", `Cannot open the run store ${path} (${detail}).`, {
      cause,
    });
  }
}

function errorCode(error: unknown): string {
  if (typeof error === "object" && error !== null && "code" in error) {
    const { code } = error;
    if (typeof code === "string") return code;
  }
  return "";
}
