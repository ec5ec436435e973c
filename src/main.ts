import { join, resolve } from "node:path";
import { run } from "probot";
import { systemClock } from "./agent/clock.js";
import { loadLenses } from "./agent/load-lenses.js";
import { gadflyApp } from "./app.js";
import { ConfigError } from "./config/config-error.js";
import { loadAppConfig } from "./config/load-app-config.js";
import { RoundRegistry } from "./github/round-registry.js";
import { createReviewerLimiter } from "./run/reviewer-limiter.js";
import { SqliteRunStore } from "./run/store/sqlite-run-store.js";
import { StoreOpenError } from "./run/store/store-open-error.js";

/** How long a shutdown waits for rounds to stop before exiting anyway (they resume on restart). */
const SHUTDOWN_GRACE_MS = 8_000;

/**
 * `npm start`: the Probot server with Gadfly's handlers. A bad config or an
 * unusable data directory stops the process at once with one clear line.
 */
async function main(): Promise<void> {
  const env = process.env;
  const config = await loadAppConfig(env, process.cwd());
  const dataDir = resolve(env.GADFLY_DATA_DIR ?? ".gadfly");
  const store = await SqliteRunStore.open({ path: join(dataDir, "gadfly.sqlite") });
  const lenses = await loadLenses({ extraDirectory: env.GADFLY_LENSES_DIR });
  const registry = new RoundRegistry();
  const server = await run(
    gadflyApp({
      config,
      env,
      store,
      limiter: createReviewerLimiter(config.review.concurrency),
      registry,
      lenses,
      dataDir,
      clock: systemClock,
      boardIntervalMs: Number(env.GADFLY_BOARD_INTERVAL_MS ?? 2000),
    }),
  );
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(
      `gadfly: ${signal}: shutting down; rounds in flight resume on the next start\n`,
    );
    await registry.shutdown(SHUTDOWN_GRACE_MS);
    await server.stop().catch(() => undefined);
    await store.close();
    process.exit(0);
  };
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof StoreOpenError) {
    console.error(`gadfly: ${error.message}`);
  } else {
    console.error("gadfly: failed to start:", error instanceof Error ? error.message : error);
  }
  process.exit(1);
});
