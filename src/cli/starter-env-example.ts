import type { StarterProvider } from "./starter-providers.js";

/**
 * `.env.example` for the chosen providers: every variable the config and Probot need,
 * each under one comment line saying where to get it. Copied to `.env`, `npm start`
 * reads it; left empty, APP_ID means setup mode, which fills in the App's three.
 */
export function starterEnvExample(providers: readonly StarterProvider[]): string {
  const keys = new Map<string, string>();
  for (const provider of providers) {
    for (const variable of provider.variables) {
      if (!keys.has(variable.name)) keys.set(variable.name, variable.where);
    }
  }
  return [
    "# Gadfly's environment, written by `gadfly init`. Put what you need of it into .env and",
    "# fill it in (setup mode writes the App's three itself). .env holds secrets: keep it out",
    "# of git. `npm start` and `gadfly doctor` read it; `gadfly review` reads the environment.",
    "",
    "# --- The GitHub App: `npm start` with APP_ID empty registers it and writes these three. ---",
    '# The App\'s id: "App ID" on its settings page (GitHub → Settings → Developer settings → GitHub Apps).',
    "APP_ID=",
    '# The App\'s private key, the whole PEM ("Generate a private key" on that page), or PRIVATE_KEY_PATH=/path/to/key.pem.',
    "PRIVATE_KEY=",
    "# The webhook secret set on that page: a long random value (openssl rand -hex 32).",
    "WEBHOOK_SECRET=",
    "",
    "# --- Model providers: the variables gadfly.config.yml names. ---",
    ...[...keys].flatMap(([name, where]) => [`# ${name}: ${where}`, `${name}=`]),
    ...(keys.size === 0 ? ["# (none: the chosen providers need no key)"] : []),
    "",
    "# --- Optional, with their defaults. ---",
    "# The app config's path.",
    "# GADFLY_CONFIG=gadfly.config.yml",
    "# Where the SQLite store and each round's snapshot live (the Docker image uses /data).",
    "# GADFLY_DATA_DIR=.gadfly",
    "# PostgreSQL for several processes (docs/running-at-scale.md): postgres://user:password@host:5432/db",
    "# GADFLY_DATABASE_URL=",
    "# docker-compose.yml only: the PostgreSQL password it sets up and gives the app (openssl rand -hex 24).",
    "# POSTGRES_PASSWORD=",
    "# The port the app listens on; its webhook URL is /api/github/webhooks there.",
    "# PORT=3000",
    "# trace, debug, info, warn, error or fatal.",
    "# LOG_LEVEL=info",
    "# GitHub Enterprise Server: its host name, and http or https.",
    "# GHE_HOST=github.example.com",
    "# GHE_PROTOCOL=https",
    "",
  ].join("\n");
}
