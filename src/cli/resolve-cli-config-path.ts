import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";

export interface CliConfigPath {
  /** Absolute path of the config the CLI reads. */
  path: string;
  /** Where the path came from, for the message when the file is missing. */
  source: "--config" | "GADFLY_CONFIG" | "user config directory";
}

/**
 * The CLI's config comes from the person running it, never from the tree it
 * reviews (a checked-out pull request's `gadfly.config.yml` could name a
 * command to run or a host to send the user's keys to): `--config`, else
 * GADFLY_CONFIG, else `$XDG_CONFIG_HOME/gadfly/config.yml`, else
 * `~/.config/gadfly/config.yml`. A relative XDG_CONFIG_HOME is ignored, as the
 * XDG spec says, so it cannot point into the working directory.
 */
export function resolveCliConfigPath(
  configOption: string | null,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): CliConfigPath {
  if (configOption !== null) return { path: resolve(cwd, configOption), source: "--config" };
  const fromEnv = env.GADFLY_CONFIG?.trim() ?? "";
  if (fromEnv !== "") return { path: resolve(cwd, fromEnv), source: "GADFLY_CONFIG" };
  const xdg = env.XDG_CONFIG_HOME?.trim() ?? "";
  const home = env.HOME?.trim() || homedir();
  const configHome = xdg !== "" && isAbsolute(xdg) ? xdg : join(home, ".config");
  return { path: join(configHome, "gadfly", "config.yml"), source: "user config directory" };
}
