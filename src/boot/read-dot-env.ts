import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseEnv } from "node:util";

/**
 * Where the app's `.env` is: GADFLY_ENV_FILE, else `.env` in the working directory. The image
 * points it into the data volume, so what setup mode writes survives the container and the
 * app's own files stay read-only.
 */
export function dotEnvPath(env: Readonly<Record<string, string | undefined>>, cwd: string): string {
  return resolve(cwd, env.GADFLY_ENV_FILE?.trim() || ".env");
}

/**
 * The environment as Probot will see it: the `.env` file (dotEnvPath) laid over the process's
 * own (Probot's `run` applies it the same way, values from the file winning). Read before
 * anything decides on APP_ID, so an App registered by setup mode, whose credentials are only in
 * `.env`, is not taken for an unregistered one.
 */
export function readDotEnv(
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): Record<string, string | undefined> {
  let text: string;
  try {
    text = readFileSync(dotEnvPath(env, cwd), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { ...env };
    throw error;
  }
  return { ...env, ...parseEnv(text) };
}
