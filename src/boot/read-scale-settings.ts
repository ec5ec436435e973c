import { ConfigError } from "../config/index.js";

/** `web` receives webhooks and queues rounds; `worker` runs them; `all` does both. */
export type GadflyRole = "web" | "worker" | "all";

export interface ScaleSettings {
  role: GadflyRole;
  /** GADFLY_DATABASE_URL (PostgreSQL), or null for the embedded SQLite store. */
  databaseUrl: string | null;
  /** Round jobs this process runs at once. */
  roundsPerProcess: number;
  /**
   * A worker that stops answering loses its round (and its model-call slots)
   * after this long; another worker then takes the round over.
   */
  visibilityTimeoutMs: number;
  /** The least time between two edits of a status board (GADFLY_BOARD_INTERVAL_MS). */
  boardIntervalMs: number;
}

/** With SQLite one process runs every round at once, as before the queue existed. */
export const IN_PROCESS_ROUNDS = 64;
/**
 * With PostgreSQL a worker holds few rounds, so rounds spread over the
 * workers: one round of several models × lenses already fills a worker's
 * `review.concurrency`, and a second overlaps its snapshot and publishing.
 */
export const ROUNDS_PER_WORKER = 2;
const DEFAULT_VISIBILITY_SECONDS = 60;
const DEFAULT_BOARD_INTERVAL_MS = 2_000;

/**
 * The scale-out settings from the environment: GADFLY_DATABASE_URL,
 * GADFLY_ROLE (or the role the command implies), GADFLY_WORKER_CONCURRENCY,
 * GADFLY_VISIBILITY_TIMEOUT_SECONDS, GADFLY_BOARD_INTERVAL_MS. Throws a ConfigError naming the
 * variable; roles other than `all` need PostgreSQL, since SQLite is one process.
 */
export function readScaleSettings(
  env: Readonly<Record<string, string | undefined>>,
  role?: GadflyRole,
): ScaleSettings {
  const issues: ConfigError["issues"] = [];
  const url = env.GADFLY_DATABASE_URL?.trim() ?? "";
  const databaseUrl = url === "" ? null : url;
  const chosen = role ?? readRole(env.GADFLY_ROLE, issues);
  if (databaseUrl === null && chosen !== "all") {
    issues.push({
      path: role === undefined ? "GADFLY_ROLE" : "GADFLY_DATABASE_URL",
      message:
        `the ${chosen} role needs GADFLY_DATABASE_URL (PostgreSQL): with SQLite one process ` +
        "receives and reviews, so set GADFLY_DATABASE_URL or leave GADFLY_ROLE unset",
    });
  }
  const roundsPerProcess = readInteger(
    env,
    "GADFLY_WORKER_CONCURRENCY",
    databaseUrl === null ? IN_PROCESS_ROUNDS : ROUNDS_PER_WORKER,
    { min: 1, max: 1000 },
    issues,
  );
  const visibilitySeconds = readInteger(
    env,
    "GADFLY_VISIBILITY_TIMEOUT_SECONDS",
    DEFAULT_VISIBILITY_SECONDS,
    { min: 3, max: 3600 },
    issues,
  );
  // Not a number would make every status change an edit: GitHub's content budget gone.
  const boardIntervalMs = readInteger(
    env,
    "GADFLY_BOARD_INTERVAL_MS",
    DEFAULT_BOARD_INTERVAL_MS,
    { min: 100, max: 600_000 },
    issues,
  );
  if (issues.length > 0) throw new ConfigError("environment", issues);
  return {
    role: chosen,
    databaseUrl,
    roundsPerProcess,
    visibilityTimeoutMs: visibilitySeconds * 1000,
    boardIntervalMs,
  };
}

function readRole(value: string | undefined, issues: ConfigError["issues"]): GadflyRole {
  const role = value?.trim() ?? "";
  if (role === "") return "all";
  if (role === "web" || role === "worker" || role === "all") return role;
  issues.push({ path: "GADFLY_ROLE", message: "must be web, worker or all" });
  return "all";
}

function readInteger(
  env: Readonly<Record<string, string | undefined>>,
  name: string,
  fallback: number,
  range: { min: number; max: number },
  issues: ConfigError["issues"],
): number {
  const text = env[name]?.trim() ?? "";
  if (text === "") return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < range.min || value > range.max) {
    issues.push({
      path: name,
      message: `must be a whole number from ${range.min} to ${range.max}`,
    });
    return fallback;
  }
  return value;
}
