import { run } from "probot";
import { listenAddress, setupModeLine } from "./listen-address.js";
import { dotEnvPath } from "./read-dot-env.js";
import { writeDotEnv } from "./write-dot-env.js";

export interface SetupModeOptions {
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  stderr: Pick<NodeJS.WritableStream, "write">;
}

/** The line printed once the App exists: what a new user does next, in order. */
export const SETUP_NEXT_STEPS =
  "gadfly: the GitHub App is registered and its credentials are in .env; next: install it on a repository (the page GitHub opened), write gadfly.config.yml with `gadfly init`, check everything with `gadfly doctor`, then restart `npm start`";

/**
 * Probot's setup mode, before the App exists (no APP_ID): the page that registers a GitHub
 * App from app.yml and writes its credentials to `.env`. Nothing else is needed or
 * loaded for it: no model config, store, key or webhook secret, since no handler of
 * ours runs and no round can start.
 */
export async function startSetupMode(
  options: SetupModeOptions,
): Promise<{ stop(): Promise<void> }> {
  const server = await run(
    () => {
      // Never loaded: without APP_ID, Probot serves its setup app instead.
    },
    {
      env: { ...options.env },
      updateEnv: (values) => {
        const merged = writeDotEnv(dotEnvPath(options.env, options.cwd), values);
        if ("APP_ID" in values) options.stderr.write(`${SETUP_NEXT_STEPS}\n`);
        return merged;
      },
    },
  );
  options.stderr.write(
    `${setupModeLine(listenAddress(options.env.HOST, server.port), options.env.WEBHOOK_PROXY_URL)}\n`,
  );
  return { stop: () => server.stop() };
}
