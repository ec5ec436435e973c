import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { ConfigError } from "./config-error.js";
import { parseConfigText } from "./parse-config-text.js";
import { AppConfig } from "./schema.js";

/**
 * Reads the app config named by GADFLY_CONFIG (default `gadfly.config.yml` in
 * the working directory). A missing file or a bad field is a ConfigError: the
 * process must not start on a config it does not understand.
 */
export async function loadAppConfig(
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): Promise<AppConfig> {
  const path = resolve(cwd, env.GADFLY_CONFIG ?? "gadfly.config.yml");
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigError(path, [
      {
        path: "",
        message:
          code === "ENOENT"
            ? "file not found (set GADFLY_CONFIG to the app config's path, or write a starter one with `gadfly init`)"
            : `cannot be read (${code ?? "unknown error"})`,
      },
    ]);
  }
  return parseConfigText(path, text, AppConfig);
}
