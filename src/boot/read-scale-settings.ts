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
  /**
   * GitHub's write budget per installation, shared by every process on one PostgreSQL
   * (GADFLY_GITHUB_WRITES_PER_MINUTE, GADFLY_GITHUB_WRITE_BURST,
   * GADFLY_GITHUB_WRITES_PER_HOUR, GADFLY_GITHUB_WRITE_WAIT_SECONDS); null when turned off
   * (a rate of 0 a minute).
   */
  githubWrites: GitHubWriteSettings | null;
}

export interface GitHubWriteSettings {
  /** Content-creating requests a minute, sustained. */
  perMinute: number;
  /** The most sent at once after a quiet spell (the bucket's size). */
  burst: number;
  /** The most sent in any 60 minutes (`hourlyWriteShape`); null: no hourly limit (0). */
  perHour: number | null;
  /** The longest a write waits for its turn before it fails. */
  maxWaitMs: number;
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
 * GitHub allows about 80 content-creating requests a minute and 500 an hour (its secondary
 * rate limits): 60 a minute with bursts of 10 stays under the first in any minute
 * (10 + 60 = 70) with room for what GitHub counts that we do not see (a person's own
 * comments under the same app); the hourly bucket keeps any 60 minutes at 500.
 */
export const DEFAULT_GITHUB_WRITES = {
  perMinute: 60,
  burst: 10,
  perHour: 500,
  maxWaitMs: 300_000,
} as const;

/**
 * The scale-out settings from the environment: GADFLY_DATABASE_URL,
 * GADFLY_ROLE (or the role the command implies), GADFLY_WORKER_CONCURRENCY,
 * GADFLY_VISIBILITY_TIMEOUT_SECONDS, GADFLY_BOARD_INTERVAL_MS, GADFLY_GITHUB_WRITE*. Throws a ConfigError naming the
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
  const githubWrites = readGitHubWrites(env, issues);
  if (issues.length > 0) throw new ConfigError("environment", issues);
  return {
    role: chosen,
    databaseUrl,
    roundsPerProcess,
    visibilityTimeoutMs: visibilitySeconds * 1000,
    boardIntervalMs,
    githubWrites,
  };
}

function readGitHubWrites(
  env: Readonly<Record<string, string | undefined>>,
  issues: ConfigError["issues"],
): GitHubWriteSettings | null {
  const perMinute = readInteger(
    env,
    "GADFLY_GITHUB_WRITES_PER_MINUTE",
    DEFAULT_GITHUB_WRITES.perMinute,
    { min: 0, max: 100_000 },
    issues,
  );
  const burst = readInteger(
    env,
    "GADFLY_GITHUB_WRITE_BURST",
    DEFAULT_GITHUB_WRITES.burst,
    { min: 1, max: 10_000 },
    issues,
  );
  const perHour = readInteger(
    env,
    "GADFLY_GITHUB_WRITES_PER_HOUR",
    DEFAULT_GITHUB_WRITES.perHour,
    { min: 0, max: 1_000_000 },
    issues,
  );
  // One an hour cannot be both a burst and a refill (hourlyWriteShape).
  if (perHour === 1) {
    issues.push({
      path: "GADFLY_GITHUB_WRITES_PER_HOUR",
      message: "must be 0 (no hourly limit) or a whole number from 2 to 1000000",
    });
  }
  const waitSeconds = readInteger(
    env,
    "GADFLY_GITHUB_WRITE_WAIT_SECONDS",
    DEFAULT_GITHUB_WRITES.maxWaitMs / 1000,
    { min: 1, max: 86_400 },
    issues,
  );
  if (perMinute === 0) return null;
  return {
    perMinute,
    burst,
    perHour: perHour === 0 ? null : perHour,
    maxWaitMs: waitSeconds * 1000,
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
