import { type AppConfig, ConfigError, priceTable } from "../config/index.js";
import type { RunStore } from "../run/store/index.js";
import { readScoreboard } from "../scoreboard/index.js";
import { createDashboardHandler, type OperationsHandler } from "../server/index.js";

/** A shorter token could be guessed through the sign-in form. */
const MIN_TOKEN_LENGTH = 16;

/**
 * GADFLY_DASHBOARD_TOKEN, or null when unset. A token too short to resist guessing stops the
 * start, naming the variable (never its value). It guards the dashboard and /metrics.
 */
export function dashboardToken(env: Readonly<Record<string, string | undefined>>): string | null {
  const token = env.GADFLY_DASHBOARD_TOKEN?.trim() ?? "";
  if (token === "") return null;
  if (token.length < MIN_TOKEN_LENGTH) {
    throw new ConfigError("environment", [
      {
        path: "GADFLY_DASHBOARD_TOKEN",
        message: `is shorter than ${MIN_TOKEN_LENGTH} characters: use a long random value (e.g. \`openssl rand -hex 32\`), or unset it to serve no dashboard`,
      },
    ]);
  }
  return token;
}

/**
 * The dashboard's handler when GADFLY_DASHBOARD_TOKEN is set, else null: then no route exists
 * and `/gadfly/dashboard` is a 404 like any unknown path.
 */
export function dashboardFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  services: { store: RunStore; config: AppConfig; onError: (error: unknown) => void },
): OperationsHandler | null {
  const token = dashboardToken(env);
  if (token === null) return null;
  const prices = priceTable(services.config.models);
  const host = env.GHE_HOST?.trim() ?? "";
  return createDashboardHandler({
    token,
    webUrl: host === "" ? "https://github.com" : `${env.GHE_PROTOCOL?.trim() || "https"}://${host}`,
    scoreboard: (query) => readScoreboard(services.store, { ...query, now: new Date(), prices }),
    onError: services.onError,
  });
}
