import { stat } from "node:fs/promises";
import { join, resolve } from "node:path";

/** The file name the app reads in its own working directory, and the CLI never reads in a tree. */
export const TREE_CONFIG_NAME = "gadfly.config.yml";

/**
 * A `gadfly.config.yml` in the working directory or the reviewed repository
 * that is not the config in use, so the CLI can say that it ignored it (a
 * user used to the old behaviour would otherwise wonder why it had no effect).
 */
export async function findIgnoredTreeConfig(
  directories: readonly string[],
  configInUse: string,
): Promise<string | null> {
  for (const directory of new Set(directories.map((entry) => resolve(entry)))) {
    const candidate = join(directory, TREE_CONFIG_NAME);
    if (candidate === resolve(configInUse)) continue;
    try {
      if ((await stat(candidate)).isFile()) return candidate;
    } catch {
      // Absent or unreadable: nothing was ignored.
    }
  }
  return null;
}
