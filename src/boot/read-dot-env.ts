import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseEnv } from "node:util";

/**
 * The environment as Probot will see it: `.env` in the working directory laid over the
 * process's own (Probot's `run` applies it the same way, values from the file winning).
 * Read before anything decides on APP_ID, so an App registered by setup mode, whose
 * credentials are only in `.env`, is not taken for an unregistered one.
 */
export function readDotEnv(
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): Record<string, string | undefined> {
  let text: string;
  try {
    text = readFileSync(join(cwd, ".env"), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { ...env };
    throw error;
  }
  return { ...env, ...parseEnv(text) };
}
