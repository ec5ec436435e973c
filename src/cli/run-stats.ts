import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { type AppConfig, ConfigError, loadAppConfig, priceTable } from "../config/index.js";
import { readScoreboard } from "../scoreboard/index.js";
import type { StatsCommandOptions } from "./cli-command.js";
import { formatStatsCsv } from "./format-stats-csv.js";
import { formatStatsText } from "./format-stats-text.js";
import { terminalSafeText } from "./terminal-safe-text.js";
import { UsageError } from "./usage-error.js";

export interface StatsIo {
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  stdout: Pick<NodeJS.WritableStream, "write">;
  stderr: Pick<NodeJS.WritableStream, "write">;
  /** The window's end; now by default. */
  now?: () => Date;
}

/**
 * `gadfly stats`: the scoreboard of the app's own store, found as `npm start` finds it
 * (`.env` in this directory over the environment; GADFLY_DATABASE_URL, else the SQLite file in
 * GADFLY_DATA_DIR). Never creates a store: without the SQLite file there is nothing to score yet,
 * which it says (exit 0: a fresh install is not a mistake). Prices come
 * from the app config; without one, tokens are counted and costs are not shown.
 */
export async function runStats(options: StatsCommandOptions, io: StatsIo): Promise<number> {
  // Loaded on demand: a local review needs neither Probot's .env reading nor the stores.
  const { readDotEnv } = await import("../boot/index.js");
  const { openRunStore } = await import("../run/store/index.js");
  const env = readDotEnv(io.env, io.cwd);
  const databaseUrl = env.GADFLY_DATABASE_URL?.trim() ?? "";
  const dataDir = resolve(io.cwd, env.GADFLY_DATA_DIR ?? ".gadfly");
  const sqlite = resolve(dataDir, "gadfly.sqlite");
  if (databaseUrl === "" && !existsSync(sqlite)) {
    // A fresh install, most often: the app has not started here yet. Nothing to score.
    io.stderr.write(
      `gadfly: ${terminalSafeText(`no rounds to score yet: the app's store (${sqlite}) is created when \`npm start\` first runs in this directory; to read another one, run gadfly stats where the app runs, or set GADFLY_DATA_DIR or GADFLY_DATABASE_URL as the app has them`, { oneLine: true })}\n`,
    );
    return 0;
  }
  const config = await appConfig(options, env, io);
  const store = await openRunStore({ databaseUrl, dataDir });
  try {
    const board = await readScoreboard(store, {
      windowMs: options.sinceMs,
      now: io.now?.() ?? new Date(),
      repository: options.repository ?? undefined,
      prices: config === null ? {} : priceTable(config.models),
    });
    if (options.format === "json") io.stdout.write(`${JSON.stringify(board, null, 2)}\n`);
    else if (options.format === "csv") io.stdout.write(formatStatsCsv(board));
    else io.stdout.write(formatStatsText(board, { since: options.since, priced: config !== null }));
    return 0;
  } finally {
    await store.close();
  }
}

/** The app config when there is one; only a config named by --config must exist. */
async function appConfig(
  options: StatsCommandOptions,
  env: Readonly<Record<string, string | undefined>>,
  io: StatsIo,
): Promise<AppConfig | null> {
  const path = resolve(io.cwd, options.configPath ?? env.GADFLY_CONFIG ?? "gadfly.config.yml");
  if (options.configPath === null && !existsSync(path)) {
    io.stderr.write(
      `gadfly: ${terminalSafeText(`no app config at ${path}: tokens are counted, costs are not shown (--config FILE for the models' prices)`, { oneLine: true })}\n`,
    );
    return null;
  }
  try {
    return await loadAppConfig({ GADFLY_CONFIG: path }, io.cwd);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new UsageError(`--config: cannot read ${path}`);
  }
}
